import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { powerUpKeys } from "./keys";

export type Lead = Pick<Tables<"leads">, "id" | "chat_id" | "power_up_id" | "fields" | "created_at">;

export async function fetchLeads(botId: string): Promise<Lead[]> {
  return unwrap(await (await loadSupabase()).from("leads").select("id, chat_id, power_up_id, fields, created_at").eq("bot_id", botId).order("created_at", { ascending: false }).limit(1000)) ?? [];
}

export function useLeadsQuery(botId: string) {
  return useQuery({ queryKey: powerUpKeys.leads(botId), queryFn: () => fetchLeads(botId) });
}
