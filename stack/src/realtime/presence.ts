// Presence per topic, in Phoenix.Presence's wire shape: state is
// {key: {metas: [{phx_ref, ...payload}]}}, diffs are {joins, leaves} of the same shape.
import crypto from "node:crypto";

export interface Meta {
  phx_ref: string;
  phx_ref_prev?: string;
  [k: string]: unknown;
}

export type PresenceMap = Record<string, { metas: Meta[] }>;

interface Entry {
  owner: number; // channel id
  key: string;
  meta: Meta;
}

function ref(): string {
  return crypto.randomBytes(8).toString("base64url");
}

export class PresenceTopic {
  private entries: Entry[] = [];

  state(): PresenceMap {
    const out: PresenceMap = {};
    for (const e of this.entries) (out[e.key] ??= { metas: [] }).metas.push(e.meta);
    return out;
  }

  get size() {
    return this.entries.length;
  }

  /** Tracks (or updates) the owner's presence under key; returns the diff to broadcast. */
  track(owner: number, key: string, payload: Record<string, unknown>): { joins: PresenceMap; leaves: PresenceMap } {
    const existing = this.entries.find((e) => e.owner === owner && e.key === key);
    const meta: Meta = { ...payload, phx_ref: ref() };
    const leaves: PresenceMap = {};
    if (existing) {
      meta.phx_ref_prev = existing.meta.phx_ref;
      leaves[key] = { metas: [existing.meta] };
      existing.meta = meta;
    } else {
      this.entries.push({ owner, key, meta });
    }
    return { joins: { [key]: { metas: [meta] } }, leaves };
  }

  /** Removes every presence of the owner; returns the diff, or null when there was none. */
  untrack(owner: number): { joins: PresenceMap; leaves: PresenceMap } | null {
    const gone = this.entries.filter((e) => e.owner === owner);
    if (gone.length === 0) return null;
    this.entries = this.entries.filter((e) => e.owner !== owner);
    const leaves: PresenceMap = {};
    for (const e of gone) (leaves[e.key] ??= { metas: [] }).metas.push(e.meta);
    return { joins: {}, leaves };
  }
}
