// One WebSocket: Phoenix frames in and out, heartbeat, channel joins and leaves,
// access_token refresh, broadcast and presence pushes, and the per-connection
// bounds (messages per second, channels per socket, slow readers).
import crypto from "node:crypto";
import type WebSocket from "ws";
import type { Db } from "../db.ts";
import type { Claims, Keys } from "../keys.ts";
import type { Logger } from "../log.ts";
import { checkToken } from "./auth.ts";
import { mayWrite, readPolicies } from "./authz.ts";
import { Channel, type ChannelOwner } from "./channel.ts";
import { bindingId, parseBinding, type ChangeDispatcher, type PgBinding } from "./changes.ts";
import type { Hub } from "./hub.ts";
import { decodeBinary, decodeText, encodeText, FrameError, type BroadcastMessage, type Frame, type Vsn } from "./protocol.ts";

export interface Limits {
  maxEventsPerSecond: number;
  maxChannelsPerSocket: number;
  maxFrameBytes: number;
  maxBufferedBytes: number;
}

export interface RealtimeContext {
  keys: Keys;
  db: Db;
  log: Logger;
  hub: Hub;
  changes: ChangeDispatcher;
  limits: Limits;
  walAvailable(): boolean;
}

const CLOSE_POLICY = 1008;
const CLOSE_TRY_AGAIN = 1013;

export class Connection implements ChannelOwner {
  private channels = new Map<string, Channel>();
  private windowStart = Date.now();
  private windowCount = 0;
  private closed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    private readonly defaultToken: string,
    private readonly ctx: RealtimeContext,
  ) {
    ws.on("message", (data: Buffer, isBinary: boolean) => this.onMessage(data, isBinary));
    ws.on("close", () => this.cleanup());
    ws.on("error", (e) => {
      ctx.log.debug("websocket error", { error: e.message });
      this.cleanup();
    });
  }

  get channelCount() {
    return this.channels.size;
  }

  sendFrame(joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown) {
    this.send(encodeText({ join_ref: joinRef, ref, topic, event, payload }, this.vsn));
  }

  sendRaw(joinRef: string | null, topic: string, event: string, payloadJson: string) {
    const head = [JSON.stringify(joinRef), "null", JSON.stringify(topic), JSON.stringify(event)];
    this.send(
      this.vsn === "2.0.0"
        ? `[${head.join(",")},${payloadJson}]`
        : `{"join_ref":${head[0]},"ref":null,"topic":${head[2]},"event":${head[3]},"payload":${payloadJson}}`,
    );
  }

  sendBinary(buf: Buffer) {
    this.send(buf);
  }

  private send(data: string | Buffer) {
    if (this.closed || this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.ctx.limits.maxBufferedBytes) {
      this.close(CLOSE_TRY_AGAIN, "Client is too slow: too many messages waiting to be sent");
      return;
    }
    this.ws.send(data);
  }

  close(code: number, reason: string) {
    if (this.closed) return;
    this.ctx.log.debug("closing connection", { code, reason });
    this.ws.close(code, reason);
    this.cleanup();
  }

  private reply(frame: Frame, status: "ok" | "error", response: unknown = {}) {
    this.sendFrame(frame.join_ref, frame.ref, frame.topic, "phx_reply", { status, response });
  }

  private overRate(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    return ++this.windowCount > this.ctx.limits.maxEventsPerSecond;
  }

  private onMessage(data: Buffer, isBinary: boolean) {
    if (this.closed) return;
    if (this.overRate()) {
      this.close(CLOSE_POLICY, "Too many messages per second");
      return;
    }
    try {
      if (isBinary) {
        const { frame, message } = decodeBinary(data);
        this.guard(async () => {
          const ch = this.channels.get(frame.topic);
          if (!ch || (frame.join_ref && ch.joinRef !== frame.join_ref)) return this.reply(frame, "error", { reason: "unmatched topic" });
          await this.broadcast(ch, frame, message);
        });
        return;
      }
      const frame = decodeText(data.toString("utf8"), this.vsn);
      if (frame.topic === "phoenix") {
        if (frame.event === "heartbeat") this.reply(frame, "ok", {});
        return;
      }
      this.guard(() => this.route(frame));
    } catch (e) {
      if (e instanceof FrameError) {
        // Phoenix drops the socket on undecodable input; we keep it and say why in the log.
        this.ctx.log.debug("ignored a malformed frame", { error: e.message });
        return;
      }
      // A bug here must cost this socket, never the process.
      this.ctx.log.error("realtime frame handling failed", { error: (e as Error).stack ?? String(e) });
      this.close(1011, "Internal error");
    }
  }

  private chain: Promise<unknown> = Promise.resolve();

  /** Runs handlers one after another, in the order their frames arrived (as a Phoenix channel process does). */
  private guard(p: () => Promise<unknown>) {
    this.chain = this.chain.then(p).catch((e) => this.ctx.log.warn("realtime handler failed", { error: (e as Error).message }));
  }

  private async route(frame: Frame) {
    if (frame.event === "phx_join") {
      try {
        return await this.join(frame);
      } catch (e) {
        this.ctx.log.warn("channel join failed", { topic: frame.topic, error: (e as Error).message });
        return this.reply(frame, "error", { reason: "UnknownErrorOnChannel: Unknown Error on Channel" });
      }
    }
    const ch = this.channels.get(frame.topic);
    if (!ch || (frame.join_ref && ch.joinRef !== frame.join_ref)) {
      this.reply(frame, "error", { reason: "unmatched topic" });
      return;
    }
    const payload = frame.payload as Record<string, unknown>;
    switch (frame.event) {
      case "phx_leave":
        this.reply(frame, "ok", {});
        this.removeChannel(ch);
        return;
      case "access_token":
        return this.refreshToken(ch, payload.access_token);
      case "broadcast": {
        if (typeof payload.event !== "string") return;
        const message: BroadcastMessage = { event: payload.event, body: { kind: "json", value: payload.payload ?? {} } };
        return this.broadcast(ch, frame, message);
      }
      case "presence":
        return this.presence(ch, frame, payload);
      default:
        this.ctx.log.debug("unexpected message from client", { event: frame.event });
    }
  }

  private async join(frame: Frame) {
    const fail = (code: string, message: string) => this.reply(frame, "error", { reason: `${code}: ${message}` });
    if (!frame.topic.startsWith("realtime:")) return this.reply(frame, "error", { reason: "unmatched topic" });
    const subTopic = frame.topic.slice("realtime:".length);
    if (!subTopic) return fail("TopicNameRequired", "You must provide a topic name");
    if (subTopic.length > 255) return fail("InvalidTopic", "Topic names may have at most 255 characters");

    const existing = this.channels.get(frame.topic);
    if (existing) {
      // A second join on a topic replaces the first, as Phoenix does.
      existing.push("phx_close", {});
      this.removeChannel(existing);
    }
    if (this.channels.size >= this.ctx.limits.maxChannelsPerSocket) {
      return this.reply(frame, "error", { reason: "ChannelRateLimitReached: Too many channels" });
    }

    const payload = frame.payload as Record<string, unknown>;
    const config = (payload.config && typeof payload.config === "object" ? payload.config : {}) as Record<string, unknown>;
    let raw = typeof payload.access_token === "string" ? payload.access_token : typeof payload.user_token === "string" ? payload.user_token : this.defaultToken;
    if (raw.startsWith("sb_")) raw = this.defaultToken;
    const checked = await checkToken(this.ctx.keys, raw);
    if (!checked.ok) return fail(checked.code, checked.message);

    const broadcast = (config.broadcast ?? {}) as Record<string, unknown>;
    const presence = (config.presence ?? {}) as Record<string, unknown>;
    const isPrivate = config.private === true;
    const presenceKey = typeof presence.key === "string" && presence.key ? presence.key : crypto.randomUUID();
    const ch = new Channel(this, frame.topic, frame.join_ref, isPrivate, checked.claims, checked.token, presenceKey);
    ch.broadcastSelf = broadcast.self === true;
    ch.broadcastAck = broadcast.ack === true;
    ch.presenceEnabled = presence.enabled === true;

    if (isPrivate) {
      const policies = await readPolicies(this.ctx.db, ch.claims, subTopic);
      if (!policies.broadcast && !policies.presence) {
        return fail("Unauthorized", `You do not have permissions to read from this Channel topic: ${subTopic}`);
      }
      ch.canReadBroadcast = policies.broadcast;
      ch.canReadPresence = policies.presence;
    }
    if (this.closed) return;

    // postgres_changes bindings, echoed back with their ids for realtime-js to match.
    const rawBindings = Array.isArray(config.postgres_changes) ? config.postgres_changes.filter((b) => b != null) : [];
    const replyBindings: Record<string, unknown>[] = [];
    const errors: string[] = [];
    for (const rb of rawBindings.slice(0, 100)) {
      const params = (rb && typeof rb === "object" ? rb : {}) as Record<string, unknown>;
      const id = bindingId(params);
      replyBindings.push({ ...params, id });
      try {
        const b = parseBinding(params);
        const binding: PgBinding = { id, ...b, sink: ch };
        ch.bindings.push(binding);
      } catch (e) {
        errors.push(`Error parsing \`filter\` params: ${(e as Error).message}`);
      }
    }

    this.channels.set(frame.topic, ch);
    this.ctx.hub.add(ch);
    this.reply(frame, "ok", { postgres_changes: replyBindings });
    ch.armExpiry(() => this.shutdown(ch, "Token has expired 0 seconds ago"));

    if (ch.presenceEnabled && ch.canReadPresence) ch.push("presence_state", this.ctx.hub.presenceState(ch.key));
    if (rawBindings.length > 0) await this.subscribeChanges(ch, errors);
  }

  private async subscribeChanges(ch: Channel, errors: string[]) {
    for (const e of errors) ch.system("postgres_changes", "error", e);
    if (!this.ctx.walAvailable()) {
      ch.system("postgres_changes", "error", "postgres_changes are not available: the database does not allow logical replication (wal_level is not logical)");
      return;
    }
    const usable: PgBinding[] = [];
    for (const b of ch.bindings) {
      if (await this.ctx.changes.inPublication(b.schema, b.table)) usable.push(b);
      else {
        ch.system(
          "postgres_changes",
          "error",
          `Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: ${b.event}, schema: ${b.schema}, table: ${b.table ?? "*"}, filters: [${b.filter ?? ""}]]`,
        );
      }
    }
    if (!ch.alive) return;
    for (const b of usable) this.ctx.changes.add(b);
    if (usable.length) ch.system("postgres_changes", "ok", "Subscribed to PostgreSQL");
  }

  /** Supabase's shutdown: a system error on the channel, then phx_close. */
  private shutdown(ch: Channel, message: string) {
    if (!ch.alive) return;
    ch.system("system", "error", message);
    ch.push("phx_close", {});
    this.removeChannel(ch);
  }

  private removeChannel(ch: Channel) {
    if (this.channels.get(ch.topic) === ch) this.channels.delete(ch.topic);
    for (const b of ch.bindings) this.ctx.changes.remove(b);
    ch.dispose();
    this.ctx.hub.remove(ch);
  }

  private async refreshToken(ch: Channel, token: unknown) {
    if (typeof token !== "string" || !token || token.startsWith("sb_") || token === ch.token) return;
    const checked = await checkToken(this.ctx.keys, token);
    if (!ch.alive) return;
    if (!checked.ok) return this.shutdown(ch, checked.message);
    const before = { broadcast: ch.canReadBroadcast, presence: ch.canReadPresence };
    ch.claims = checked.claims as Claims;
    ch.token = checked.token;
    ch.mayWrite = {};
    if (ch.isPrivate) {
      const now = await readPolicies(this.ctx.db, ch.claims, ch.subTopic);
      if ((before.broadcast && !now.broadcast) || (before.presence && !now.presence)) {
        return this.shutdown(ch, `You no longer have permission to read from this Channel topic: ${ch.subTopic}`);
      }
      ch.canReadBroadcast = now.broadcast;
      ch.canReadPresence = now.presence;
    }
    ch.armExpiry(() => this.shutdown(ch, "Token has expired 0 seconds ago"));
  }

  private async allowedToWrite(ch: Channel, extension: "broadcast" | "presence") {
    if (!ch.isPrivate) return true;
    if (ch.mayWrite[extension] === undefined) ch.mayWrite[extension] = await mayWrite(this.ctx.db, ch.claims, ch.subTopic, extension);
    return ch.mayWrite[extension]!;
  }

  private async broadcast(ch: Channel, frame: Frame, message: BroadcastMessage) {
    const allowed = await this.allowedToWrite(ch, "broadcast");
    if (!ch.alive) return;
    if (allowed) this.ctx.hub.broadcast(ch.key, message, ch);
    if (ch.broadcastAck && frame.ref) this.reply(frame, allowed ? "ok" : "error", allowed ? {} : { reason: "You do not have permissions to write to this Channel topic: " + ch.subTopic });
  }

  private async presence(ch: Channel, frame: Frame, payload: Record<string, unknown>) {
    const event = typeof payload.event === "string" ? payload.event.toLowerCase() : "";
    if (event !== "track" && event !== "untrack") return this.reply(frame, "error", { reason: "Presence event must be track or untrack" });
    if (!(await this.allowedToWrite(ch, "presence"))) return this.reply(frame, "error", { reason: "You do not have permissions to track presence on this Channel topic: " + ch.subTopic });
    if (!ch.alive) return;
    if (event === "untrack") {
      this.ctx.hub.untrack(ch);
      return this.reply(frame, "ok", {});
    }
    const meta = payload.payload ?? {};
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) {
      return this.reply(frame, "error", { reason: "Presence track payload must be a map" });
    }
    if (!ch.presenceEnabled) {
      // A track enables presence for this channel: send it the state it never got.
      ch.presenceEnabled = true;
      if (ch.canReadPresence) ch.push("presence_state", this.ctx.hub.presenceState(ch.key));
    }
    this.ctx.hub.track(ch, meta as Record<string, unknown>);
    this.reply(frame, "ok", {});
  }

  private cleanup() {
    if (this.closed) return;
    this.closed = true;
    for (const ch of [...this.channels.values()]) this.removeChannel(ch);
  }
}
