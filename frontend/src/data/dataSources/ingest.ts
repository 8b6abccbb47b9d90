// The ingest function's actions (sync, cancel, retry, reingest, a Notion token), as the
// signed-in user: the function checks access as the caller.
import type { IngestCancelAnswer, IngestJobAnswer, IngestSyncRequest, NotionTokenAnswer, NotionTokenRequest } from "@shared/contracts/ingest.ts";
import { callFunction } from "../../lib/functions";

export const startSync = (sourceId: string, trigger: NonNullable<IngestSyncRequest["trigger"]> = "manual") =>
  callFunction<IngestJobAnswer>(`ingest/sources/${sourceId}/sync`, { trigger } satisfies IngestSyncRequest);
export const cancelJob = (jobId: string) => callFunction<IngestCancelAnswer>(`ingest/jobs/${jobId}/cancel`);
export const retryJob = (jobId: string) => callFunction<IngestJobAnswer>(`ingest/jobs/${jobId}/retry`);
export const reingestDocument = (documentId: string) => callFunction<IngestJobAnswer>(`ingest/documents/${documentId}/reingest`);

/** A pasted token, or the id of a connection made through Notion's OAuth (the token stays server-side). */
export function storeNotionToken(dataSourceId: string, from: { accessToken: string } | { connectionId: string }): Promise<NotionTokenAnswer> {
  const body: NotionTokenRequest = "connectionId" in from ? { data_source_id: dataSourceId, connection_id: from.connectionId } : { data_source_id: dataSourceId, access_token: from.accessToken };
  return callFunction<NotionTokenAnswer>("ingest/notion/token", body);
}
