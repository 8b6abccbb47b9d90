// Supabase-Realtime-compatible service at /realtime/v1: the Phoenix channel
// protocol at /websocket (vsn 1.0.0 and 2.0.0), postgres_changes read from the WAL,
// broadcast (also POST /api/broadcast) and presence, private channels authorised
// by RLS on realtime.messages.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { HttpError, readBody, sendJson } from "../http.ts";
import type { GatewayRequest, Service, ServiceContext } from "../service.ts";
import { resolveApiKeyToken } from "./auth.ts";
import { mayWrite } from "./authz.ts";
import { ChangeDispatcher } from "./changes.ts";
import { Connection, type Limits, type RealtimeContext } from "./connection.ts";
import { Hub, topicKey } from "./hub.ts";
import type { BroadcastMessage } from "./protocol.ts";
import { WalReader } from "./wal.ts";

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

function rejectUpgrade(socket: Duplex, status: number, text: string, message: string) {
  const body = JSON.stringify({ code: status, message });
  socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export async function createService(ctx: ServiceContext): Promise<Service> {
  const log = ctx.log.child("realtime");
  const limits: Limits = {
    maxEventsPerSecond: envInt("PARLEY_REALTIME_MAX_EVENTS_PER_SECOND", 100),
    maxChannelsPerSocket: envInt("PARLEY_REALTIME_MAX_CHANNELS_PER_SOCKET", 100),
    maxFrameBytes: envInt("PARLEY_REALTIME_MAX_FRAME_BYTES", 1024 * 1024),
    maxBufferedBytes: envInt("PARLEY_REALTIME_MAX_BUFFERED_BYTES", 16 * 1024 * 1024),
  };
  const hub = new Hub();
  const deliverRow = (row: Record<string, unknown>) => {
    if (row.extension !== "broadcast" || typeof row.topic !== "string" || typeof row.event !== "string") return;
    if (row.event === "authorization_check") return;
    hub.broadcast(topicKey(row.topic, row.private === true), { event: row.event, body: { kind: "json", value: row.payload ?? {} } });
  };
  const changes = new ChangeDispatcher(ctx.db, log, deliverRow);
  // Only what someone could receive is decoded: realtime.messages inserts while any channel is
  // joined (realtime.send's broadcasts), other tables' changes while a binding matches them.
  const wal = new WalReader(
    ctx.dbUrl,
    log,
    (c) => changes.onCommit(c),
    (rel, type) => (rel.schema === "realtime" && rel.table === "messages" ? type === "INSERT" && hub.hasChannels : changes.wants(rel.schema, rel.table, type)),
  );
  changes.available = await wal.start();

  // As Supabase Realtime does: realtime.messages is partitioned by day; keep today's and the
  // next three days' partitions ready (a row without one is refused) and drop those older
  // than three days, every hour.
  const managePartitions = () =>
    manageRealtimePartitions(ctx.db).catch((e: unknown) => log.warn(`realtime: managing realtime.messages partitions failed: ${(e as Error).message}`));
  await managePartitions();
  const partitioner = setInterval(() => void managePartitions(), 60 * 60 * 1000);
  partitioner.unref();

  const rt: RealtimeContext = { keys: ctx.keys, db: ctx.db, log, hub, changes, limits, walAvailable: () => changes.available };
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxFrameBytes, perMessageDeflate: false });
  const connections = new Set<Connection>();

  async function restBroadcast(r: GatewayRequest) {
    if (!r.apikeyRole) throw new HttpError(401, "unauthorized", "No valid API key found in request");
    if (r.authError || !r.claims) throw new HttpError(401, "unauthorized", r.authError?.message ?? "Invalid JWT");
    const claims = r.claims;
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)\/?$/.exec(r.path);
    const messages: { topic: string; event: string; body: BroadcastMessage["body"]; private: boolean }[] = [];
    if (single) {
      const body = await readBody(r.req, limits.maxFrameBytes);
      const binary = String(r.req.headers["content-type"] ?? "").startsWith("application/octet-stream");
      let value: unknown;
      if (!binary) {
        try {
          value = body.length ? JSON.parse(body.toString("utf8")) : {};
        } catch {
          throw new HttpError(400, "bad_json", "Could not parse request body as JSON");
        }
      }
      messages.push({
        topic: decodeURIComponent(single[1]!),
        event: decodeURIComponent(single[2]!),
        body: binary ? { kind: "binary", value: body } : { kind: "json", value },
        private: r.query.get("private") === "true",
      });
    } else {
      const body = await readBody(r.req, limits.maxFrameBytes);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        throw new HttpError(400, "bad_json", "Could not parse request body as JSON");
      }
      const list = (parsed as { messages?: unknown })?.messages;
      if (!Array.isArray(list) || list.length === 0) throw new HttpError(400, "invalid_request", "Body must be {messages: [{topic, event, payload, private}]}");
      if (list.length > 1000) throw new HttpError(400, "invalid_request", "At most 1000 messages per request");
      for (const m of list) {
        const o = (m ?? {}) as Record<string, unknown>;
        if (typeof o.topic !== "string" || !o.topic || typeof o.event !== "string" || !o.event) {
          throw new HttpError(400, "invalid_request", "Each message needs a topic and an event (strings)");
        }
        messages.push({ topic: o.topic, event: o.event, body: { kind: "json", value: o.payload ?? {} }, private: o.private === true });
      }
    }
    for (const m of messages) {
      // Private messages are sent only when RLS lets the caller insert into realtime.messages.
      if (m.private && !(await mayWrite(ctx.db, claims, m.topic, "broadcast"))) continue;
      hub.broadcast(topicKey(m.topic, m.private), { event: m.event, body: m.body });
    }
    r.res.writeHead(202, { "content-length": "0" });
    r.res.end();
  }

  return {
    async handle(r: GatewayRequest) {
      try {
        if (r.req.method === "POST" && (r.path === "/api/broadcast" || r.path.startsWith("/api/broadcast/"))) return await restBroadcast(r);
        if (r.req.method === "GET" && (r.path === "/api/health" || r.path === "/api/ping")) {
          return sendJson(r.res, 200, { message: "Success", postgres_changes: changes.available });
        }
        r.req.resume();
        sendJson(r.res, 404, { code: "not_found", message: "Not found" });
      } catch (e) {
        r.req.resume();
        if (e instanceof HttpError) return sendJson(r.res, e.status, { error: e.message, message: e.message, code: e.code });
        throw e;
      }
    },

    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, r: Omit<GatewayRequest, "res">) {
      socket.on("error", () => socket.destroy());
      if (r.path !== "/websocket" && r.path !== "/websocket/") return rejectUpgrade(socket, 404, "Not Found", "Not found");
      if (!r.apikeyRole) return rejectUpgrade(socket, 403, "Forbidden", "No valid API key found in request");
      const vsn = r.query.get("vsn") ?? "1.0.0";
      if (vsn !== "1.0.0" && vsn !== "2.0.0") return rejectUpgrade(socket, 400, "Bad Request", `Unsupported vsn "${vsn}"`);
      const apikey = (req.headers.apikey as string | undefined) ?? r.query.get("apikey") ?? "";
      const defaultToken = resolveApiKeyToken(ctx.keys, apikey.startsWith("sb_") ? apikey : (r.token ?? apikey));
      wss.handleUpgrade(req, socket, head, (ws) => {
        const conn = new Connection(ws, vsn, defaultToken, rt);
        connections.add(conn);
        ws.on("close", () => connections.delete(conn));
      });
    },

    async health() {
      return true;
    },

    async stop() {
      clearInterval(partitioner);
      for (const c of connections) c.close(1001, "Server is shutting down");
      connections.clear();
      wss.close();
      await wal.stop();
    },

    stats() {
      return { connections: connections.size, channels: hub.channelCount, bindings: changes.count, postgres_changes: changes.available };
    },
  };
}

/**
 * Creates the partitions of realtime.messages for today and the next three days and drops
 * those older than three days (Supabase's retention), with realtime.parley_manage_partitions
 * from stack/sql/30-realtime.sql.
 */
export async function manageRealtimePartitions(db: { query(text: string): Promise<unknown> }): Promise<void> {
  await db.query("select realtime.parley_manage_partitions(3, 3)");
}
