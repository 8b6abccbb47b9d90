// The channels of every connection, grouped by topic (public and private topics are
// separate, as on Supabase), with presence per topic and broadcast fan-out.
import type { Channel } from "./channel.ts";
import { PresenceTopic } from "./presence.ts";
import type { BroadcastMessage } from "./protocol.ts";

export function topicKey(subTopic: string, isPrivate: boolean) {
  return `${isPrivate ? "private" : "public"}:${subTopic}`;
}

export class Hub {
  private topics = new Map<string, Set<Channel>>();
  private presence = new Map<string, PresenceTopic>();

  add(ch: Channel) {
    let set = this.topics.get(ch.key);
    if (!set) this.topics.set(ch.key, (set = new Set()));
    set.add(ch);
  }

  remove(ch: Channel) {
    const set = this.topics.get(ch.key);
    set?.delete(ch);
    if (set && set.size === 0) this.topics.delete(ch.key);
    const p = this.presence.get(ch.key);
    if (p) {
      const diff = p.untrack(ch.id);
      if (diff) this.presenceDiff(ch.key, diff);
      if (p.size === 0) this.presence.delete(ch.key);
    }
  }

  /** Whether any channel is joined (one that could receive a broadcast). */
  get hasChannels() {
    return this.topics.size > 0;
  }

  get channelCount() {
    let n = 0;
    for (const s of this.topics.values()) n += s.size;
    return n;
  }

  broadcast(key: string, message: BroadcastMessage, from?: Channel) {
    const set = this.topics.get(key);
    if (!set) return;
    for (const ch of set) {
      if (ch === from && !ch.broadcastSelf) continue;
      if (!ch.canReadBroadcast) continue;
      ch.sendBroadcast(message);
    }
  }

  presenceState(key: string) {
    return this.presence.get(key)?.state() ?? {};
  }

  track(ch: Channel, payload: Record<string, unknown>) {
    let p = this.presence.get(ch.key);
    if (!p) this.presence.set(ch.key, (p = new PresenceTopic()));
    this.presenceDiff(ch.key, p.track(ch.id, ch.presenceKey, payload));
  }

  untrack(ch: Channel) {
    const p = this.presence.get(ch.key);
    const diff = p?.untrack(ch.id);
    if (diff) this.presenceDiff(ch.key, diff);
  }

  private presenceDiff(key: string, diff: object) {
    const set = this.topics.get(key);
    if (!set) return;
    for (const ch of set) if (ch.presenceEnabled && ch.canReadPresence) ch.push("presence_diff", diff);
  }
}
