// The admin lists (users, teams, team members, bots, chats): one page after a keyset cursor,
// through the security-definer admin_list_* functions (Postgres checks the caller is a platform
// administrator). A page is asked with one extra row to know whether another page follows.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminKeys } from "./keys";

export const ADMIN_LISTS = {
  users: { rpc: "admin_list_users", sorts: ["created_at"] },
  teams: { rpc: "admin_list_teams", sorts: ["created_at", "name"] },
  "team-members": { rpc: "admin_list_team_members", sorts: ["created_at"] },
  bots: { rpc: "admin_list_bots", sorts: ["created_at", "name"] },
  chats: { rpc: "admin_list_chats", sorts: ["created_at", "message_count"] },
} as const;
export type AdminListName = keyof typeof ADMIN_LISTS;

export interface AdminListRows {
  users: RpcRow<"admin_list_users">;
  teams: RpcRow<"admin_list_teams">;
  "team-members": RpcRow<"admin_list_team_members">;
  bots: RpcRow<"admin_list_bots">;
  chats: RpcRow<"admin_list_chats">;
}
export type AdminRow<N extends AdminListName> = AdminListRows[N];

export interface AdminListParams {
  search?: string;
  /** RPC argument name → value (kind_filter, plan_filter, team_filter, ...); empty values are left out. */
  filters: Record<string, string | boolean | undefined>;
  sort: string;
  descending: boolean;
}

/** Where the next page starts: the last row's sort value and id. */
export interface Cursor {
  value: string;
  id: string;
}

export interface AdminPage<N extends AdminListName> {
  rows: AdminRow<N>[];
  next: Cursor | null;
}

export const PAGE_SIZE = 25;

function rpcArgs(name: AdminListName, params: AdminListParams, cursor: Cursor | null, pageSize: number): Record<string, unknown> {
  const args: Record<string, unknown> = { descending: params.descending, page_size: pageSize };
  const search = params.search?.trim();
  if (search && name !== "team-members") args.search = search;
  if (ADMIN_LISTS[name].sorts.length > 1) args.sort = params.sort;
  for (const [k, v] of Object.entries(params.filters)) if (v !== undefined && v !== "") args[k] = v;
  if (cursor) {
    args.after_value = cursor.value;
    args.after_id = cursor.id;
  }
  return args;
}

/** One page of a list after `cursor` (null: the first page). */
export async function fetchAdminPage<N extends AdminListName>(name: N, params: AdminListParams, cursor: Cursor | null, pageSize = PAGE_SIZE): Promise<AdminPage<N>> {
  const db = await loadSupabase();
  const rows = (unwrap(await db.rpc(ADMIN_LISTS[name].rpc, rpcArgs(name, params, cursor, pageSize + 1) as never)) ?? []) as unknown as AdminRow<N>[];
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1] as Record<string, unknown> | undefined;
  const next = rows.length > pageSize && last ? { value: String(last[params.sort]), id: String(last.id) } : null;
  return { rows: page, next };
}

export function useAdminListQuery<N extends AdminListName>(name: N, params: AdminListParams, cursor: Cursor | null, pageSize = PAGE_SIZE, enabled = true) {
  return useQuery({
    queryKey: [...adminKeys.list(name, params, cursor ? `${cursor.value}|${cursor.id}` : null), pageSize],
    queryFn: () => fetchAdminPage(name, params, cursor, pageSize),
    placeholderData: keepPreviousData,
    enabled,
  });
}
