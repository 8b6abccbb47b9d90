// Notion connections (public.notion_connections): a Notion OAuth access token between
// the code exchange (notion-connect) and the data source that uses it (ingest moves it
// into data_source_secrets). Service role only; a connection is its user's alone.
import type { Db } from "../clients.ts";
import type { Tables } from "../database.types.ts";
import { must } from "../db.ts";
import { HttpError } from "../http.ts";

export type NotionConnection = Tables<"notion_connections">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const connectionExpired = () =>
  new HttpError(404, "connection_not_found", "This Notion connection has expired or does not exist. Connect Notion again.");

/** The caller's live connection (not expired); `connected`: it must hold a token. */
export async function findConnection(
  service: Db,
  id: string,
  userId: string,
  opts: { connected?: boolean } = {},
): Promise<NotionConnection> {
  if (!UUID.test(id)) throw connectionExpired();
  const data = must(
    await service
      .from("notion_connections")
      .select("*")
      .eq("id", id)
      .eq("user_id", userId)
      .gt("expires_at", new Date().toISOString())
      .maybeSingle(),
    "notion connection",
  );
  if (!data || (opts.connected && !data.access_token)) throw connectionExpired();
  return data;
}

/** Moves a connection's token into the data source's secrets and forgets the connection. */
export async function claimConnection(
  service: Db,
  connectionId: string,
  userId: string,
  dataSourceId: string,
): Promise<void> {
  const conn = await findConnection(service, connectionId, userId, { connected: true });
  must(
    await service
      .from("data_source_secrets")
      .upsert({ data_source_id: dataSourceId, notion_access_token: conn.access_token }, { onConflict: "data_source_id" }),
    "store token",
  );
  must(await service.from("notion_connections").delete().eq("id", conn.id), "forget connection");
}

/** Deletes expired connections (every user's); called on each start. */
export async function sweepConnections(service: Db): Promise<void> {
  must(await service.from("notion_connections").delete().lt("expires_at", new Date().toISOString()), "sweep connections");
}
