// The admin audit log, newest first, a page before an id (admin_list_audit_log).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminKeys, type AuditLogParams } from "./keys";

export type AuditEntry = Tables<"admin_audit_log">;

export interface AuditPage {
  rows: AuditEntry[];
  /** The id the next (older) page starts before, or null at the end. */
  next: number | null;
}

export async function fetchAuditLog(params: AuditLogParams, beforeId: number | null, pageSize = 25): Promise<AuditPage> {
  const db = await loadSupabase();
  const rows =
    unwrap(
      await db.rpc("admin_list_audit_log", {
        search: params.search?.trim() || undefined,
        action_filter: params.action || undefined,
        target_type_filter: params.targetType || undefined,
        target_id_filter: params.targetId || undefined,
        before_id: beforeId ?? undefined,
        page_size: pageSize + 1,
      }),
    ) ?? [];
  const page = rows.slice(0, pageSize);
  return { rows: page, next: rows.length > pageSize ? page[page.length - 1]!.id : null };
}

export function useAuditLogQuery(params: AuditLogParams, beforeId: number | null, pageSize = 25) {
  return useQuery({
    queryKey: [...adminKeys.auditLog(params, beforeId), pageSize],
    queryFn: () => fetchAuditLog(params, beforeId, pageSize),
    placeholderData: keepPreviousData,
  });
}
