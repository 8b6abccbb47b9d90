// The one fetcher of the admin dashboard's reads: a security-definer admin_* function (it
// refuses anyone who is not a platform administrator with 42501) and its rows.
import type { Database, RpcRow } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

type Fns = Database["public"]["Functions"];
export type AdminRead = Extract<keyof Fns, `admin_${string}`>;

export async function adminRows<N extends AdminRead>(name: N, args: Fns[N]["Args"]): Promise<RpcRow<N>[]> {
  const db = await loadSupabase();
  // The generated overloads of rpc() do not narrow on a generic name; the row type comes from N.
  const result = await (db.rpc as unknown as (n: string, a: unknown) => Promise<{ data: unknown; error: object | null }>)(name, args);
  return (unwrap(result) ?? []) as RpcRow<N>[];
}

/** The periods the dashboard offers, in days (today included). */
export const ADMIN_PERIODS = [7, 30, 90] as const;
export type AdminPeriod = (typeof ADMIN_PERIODS)[number];
