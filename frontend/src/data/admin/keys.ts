// Query keys of the admin area, general to specific, rooted at "admin".
import type { AdminListName, AdminListParams } from "./lists";

export const adminKeys = {
  all: ["admin"] as const,
  lists: () => [...adminKeys.all, "list"] as const,
  list: (name: AdminListName, params: AdminListParams, cursor: string | null) => [...adminKeys.lists(), name, params, cursor] as const,
  auditLog: (params: AuditLogParams, beforeId: number | null) => [...adminKeys.all, "audit-log", params, beforeId] as const,
  allAuditLog: () => [...adminKeys.all, "audit-log"] as const,
  user: (userId: string) => [...adminKeys.all, "user", userId] as const,
  bot: (botId: string) => [...adminKeys.all, "bot", botId] as const,
  plans: () => [...adminKeys.all, "plans"] as const,
};

export interface AuditLogParams {
  search?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
}
