import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { billingKeys } from "./keys";
import type { Invoice } from "./types";

export async function fetchInvoices(teamId: string): Promise<Invoice[]> {
  return unwrap(await (await loadSupabase()).from("invoices").select("*").eq("team_id", teamId).order("created_at", { ascending: false }).limit(24)) ?? [];
}

export function useInvoicesQuery(teamId: string) {
  return useQuery({ queryKey: billingKeys.invoices(teamId), queryFn: () => fetchInvoices(teamId), enabled: !!teamId });
}
