// One user or one bot, everything the admin pages show (admin_get_user, admin_get_bot).
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { adminKeys } from "./keys";
import type { AdminBotDetail, AdminUserDetail } from "./types";

export async function fetchAdminUser(userId: string): Promise<AdminUserDetail> {
  return unwrap(await (await loadSupabase()).rpc("admin_get_user", { user_id: userId })) as unknown as AdminUserDetail;
}

export async function fetchAdminBot(botId: string): Promise<AdminBotDetail> {
  return unwrap(await (await loadSupabase()).rpc("admin_get_bot", { bot_id: botId })) as unknown as AdminBotDetail;
}

export function useAdminUserQuery(userId: string) {
  return useQuery({ queryKey: adminKeys.user(userId), queryFn: () => fetchAdminUser(userId) });
}

export function useAdminBotQuery(botId: string) {
  return useQuery({ queryKey: adminKeys.bot(botId), queryFn: () => fetchAdminBot(botId) });
}
