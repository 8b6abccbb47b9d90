// One error shape for the data hooks: the database's message (RLS, RPC checks) with its code,
// so screens can show what Postgres said and branch on codes.
export interface AppError extends Error {
  code?: string;
  hint?: string;
  details?: unknown;
}

export function toAppError(error: { message: string; code?: string; hint?: string | null; details?: unknown }): AppError {
  return Object.assign(new Error(error.message), { code: error.code, hint: error.hint ?? undefined, details: error.details });
}

/** Calls an edge function with the current session and turns `{error:{code,message}}` into an AppError. */
export async function callFunction<T>(name: string, body: unknown): Promise<T> {
  const { getSupabase } = await import("../../lib/supabase");
  const { getConfig } = await import("../../lib/config");
  const client = getSupabase();
  const { data } = await client.auth.getSession();
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  const res = await fetch(`${supabaseUrl}/functions/v1/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: supabaseAnonKey, authorization: `Bearer ${data.session?.access_token ?? supabaseAnonKey}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string; details?: unknown } };
  if (!res.ok) {
    throw toAppError({ message: json.error?.message ?? `HTTP ${res.status}`, code: json.error?.code ?? String(res.status), details: json.error?.details });
  }
  return json as T;
}
