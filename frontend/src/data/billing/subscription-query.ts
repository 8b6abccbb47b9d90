import { type Query, useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { billingKeys } from "./keys";
import type { Subscription } from "./types";

/** The team's subscription (its owners read it; null for anyone else). */
export async function fetchSubscription(teamId: string): Promise<Subscription | null> {
  return unwrap(await (await loadSupabase()).from("subscriptions").select("*").eq("team_id", teamId).maybeSingle());
}

type Poll = number | false | ((query: Query<Subscription | null, Error, Subscription | null, readonly unknown[]>) => number | false | undefined);

/** `poll`: ms between reads (or a function of the query) while waiting for Stripe's webhook (the success page). */
export function useSubscriptionQuery(teamId: string, poll?: Poll) {
  return useQuery({ queryKey: billingKeys.subscription(teamId), queryFn: () => fetchSubscription(teamId), enabled: !!teamId, refetchInterval: poll });
}
