// One joined channel of one connection: its claims, config, postgres_changes
// bindings and the timer that closes it when its token expires.
import type { Claims } from "../keys.ts";
import type { ChangeSink, PgBinding } from "./changes.ts";
import { topicKey } from "./hub.ts";
import { broadcastPayload, encodeBroadcastBinary, type BroadcastMessage } from "./protocol.ts";

export interface ChannelOwner {
  sendFrame(joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown): void;
  sendBinary(buf: Buffer): void;
  /** Sends a push whose payload is already JSON text. */
  sendRaw(joinRef: string | null, topic: string, event: string, payloadJson: string): void;
  readonly vsn: "1.0.0" | "2.0.0";
}

let nextId = 1;
const MAX_TIMER_MS = 60 * 60 * 1000;

export class Channel implements ChangeSink {
  readonly id = nextId++;
  readonly key: string;
  readonly subTopic: string;
  claims: Claims;
  token: string;
  broadcastSelf = false;
  broadcastAck = false;
  presenceKey: string;
  presenceEnabled = false;
  canReadBroadcast = true;
  canReadPresence = true;
  /** Cached INSERT checks on realtime.messages for private channels (reset on a new token). */
  mayWrite: { broadcast?: boolean; presence?: boolean } = {};
  bindings: PgBinding[] = [];
  alive = true;
  private expiryTimer?: NodeJS.Timeout;

  constructor(
    readonly owner: ChannelOwner,
    readonly topic: string,
    readonly joinRef: string | null,
    readonly isPrivate: boolean,
    claims: Claims,
    token: string,
    presenceKey: string,
  ) {
    this.subTopic = topic.slice("realtime:".length);
    this.key = topicKey(this.subTopic, isPrivate);
    this.claims = claims;
    this.token = token;
    this.presenceKey = presenceKey;
  }

  push(event: string, payload: unknown) {
    if (this.alive) this.owner.sendFrame(this.joinRef, null, this.topic, event, payload);
  }

  system(extension: string, status: "ok" | "error", message: string) {
    this.push("system", { extension, status, message, channel: this.subTopic });
  }

  sendChange(ids: number[], data: string) {
    if (this.alive) this.owner.sendRaw(this.joinRef, this.topic, "postgres_changes", `{"ids":${JSON.stringify(ids)},"data":${data}}`);
  }

  sendBroadcast(message: BroadcastMessage) {
    if (!this.alive) return;
    if (this.owner.vsn === "2.0.0") {
      const buf = encodeBroadcastBinary(this.topic, message);
      if (buf.length) return this.owner.sendBinary(buf);
    }
    const p = broadcastPayload(message);
    if (p) this.push("broadcast", p);
  }

  /** Arms a timer for the token's expiry; `onExpire` shuts the channel down. */
  armExpiry(onExpire: () => void) {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
    const exp = typeof this.claims.exp === "number" ? this.claims.exp * 1000 : Infinity;
    const wait = exp - Date.now();
    if (!Number.isFinite(wait)) return;
    this.expiryTimer = setTimeout(() => {
      if (Date.now() >= exp) onExpire();
      else this.armExpiry(onExpire);
    }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    this.expiryTimer.unref();
  }

  dispose() {
    this.alive = false;
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
  }
}
