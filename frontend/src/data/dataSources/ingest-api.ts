// Calls to the `ingest` and `notion-connect` edge functions with the signed-in user's token
// (the functions check access as the caller). Their errors are {"error": {code, message}}.
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

export const callIngest = <T>(path: string, body?: unknown) => callKnowledgeFunction<T>("ingest", path, body);

export async function callKnowledgeFunction<T>(fn: "ingest" | "notion-connect", path: string, body?: unknown): Promise<T> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new IngestError(401, "not_signed_in", "Sign in again to continue.");
  const { apiBaseUrl, supabaseAnonKey } = getConfig();
  const res = await fetch(`${apiBaseUrl}/${fn}/${path.replace(/^\/+/, "")}`, {
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
/** A pasted token, or the id of a connection made through Notion's OAuth (the token stays server-side). */
export const storeNotionToken = (dataSourceId: string, from: { accessToken: string } | { connectionId: string }) =>
  callIngest<{ ok: true }>(
    "notion/token",
    "connectionId" in from ? { data_source_id: dataSourceId, connection_id: from.connectionId } : { data_source_id: dataSourceId, access_token: from.accessToken },
  );
