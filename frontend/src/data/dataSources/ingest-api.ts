// Calls to the `ingest` edge function with the signed-in user's token (the function checks
// access by reading the row as the caller). Its errors are {"error": {code, message}}.
import { getConfig } from "../../lib/config";
import { getSupabase } from "../../lib/supabase";

export class IngestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "IngestError";
  }
}

export async function callIngest<T>(path: string, body?: unknown): Promise<T> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new IngestError(401, "not_signed_in", "Sign in again to continue.");
  const { apiBaseUrl, supabaseAnonKey } = getConfig();
  const res = await fetch(`${apiBaseUrl}/ingest/${path.replace(/^\/+/, "")}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, apikey: supabaseAnonKey, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  const payload = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string; details?: unknown } } | undefined;
  if (!res.ok) {
    const e = payload?.error;
    throw new IngestError(res.status, e?.code ?? `http_${res.status}`, e?.message ?? res.statusText ?? `HTTP ${res.status}`, e?.details);
  }
  return payload as T;
}

export const startSync = (sourceId: string, trigger: "manual" | "create" = "manual") =>
  callIngest<{ job_id: string }>(`sources/${sourceId}/sync`, { trigger });
export const cancelJob = (jobId: string) => callIngest<{ job_id: string; status: string }>(`jobs/${jobId}/cancel`);
export const retryJob = (jobId: string) => callIngest<{ job_id: string }>(`jobs/${jobId}/retry`);
export const reingestDocument = (documentId: string) => callIngest<{ job_id: string }>(`documents/${documentId}/reingest`);
export const storeNotionToken = (dataSourceId: string, accessToken: string) =>
  callIngest<{ ok: true }>("notion/token", { data_source_id: dataSourceId, access_token: accessToken });
