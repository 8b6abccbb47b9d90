// The one way a screen listens to Supabase Realtime: a channel named once, its listeners
// (postgres_changes under RLS, or broadcasts on a private topic), and a callback each time the
// subscription is (re)joined, so a screen can read again what it missed while it was down.
// The client is loaded lazily: public pages that never listen never load supabase-js.
import { useEffect, useRef } from "react";
import type { RealtimePostgresChangesPayload } from "@supabase/supabase-js";
import type { Database } from "./database";
import { loadSupabase } from "./supabase-ready";

type TableName = keyof Database["public"]["Tables"];
export type ChangePayload<T extends TableName> = RealtimePostgresChangesPayload<Database["public"]["Tables"][T]["Row"]>;

export type RealtimeListener =
  | { kind: "changes"; table: TableName; filter?: string; event?: "*" | "INSERT" | "UPDATE" | "DELETE"; onChange: (payload: ChangePayload<TableName>) => void }
  | { kind: "broadcast"; event: string; onMessage: (payload: { [key: string]: unknown }) => void };

export interface RealtimeChannelOptions {
  listeners: RealtimeListener[];
  /** A private channel (realtime.messages policies decide who may join). */
  private?: boolean;
  /**
   * Called on every SUBSCRIBED (the first join and each rejoin after a dropped connection) and,
   * for table listeners, again when the server confirms it listens to the database.
   */
  onSubscribed?: () => void;
}

/** A typed postgres_changes listener (the payload's rows are the table's Row type). */
export function tableChanges<T extends TableName>(table: T, filter: string, onChange: (payload: ChangePayload<T>) => void, event: "*" | "INSERT" | "UPDATE" | "DELETE" = "*"): RealtimeListener {
  return { kind: "changes", table, filter, event, onChange: onChange as (payload: ChangePayload<TableName>) => void };
}

/**
 * Joins `name` while the component is mounted (null: not now). The channel is rebuilt only
 * when its name or what it listens to changes; the callbacks may change on every render.
 */
export function useRealtimeChannel(name: string | null, options: RealtimeChannelOptions): void {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const shape = JSON.stringify([options.private ?? false, options.listeners.map((l) => (l.kind === "changes" ? [l.table, l.filter, l.event] : [l.event]))]);
  useEffect(() => {
    if (!name) return;
    let stopped = false;
    let stop: (() => void) | undefined;
    void loadSupabase().then((client) => {
      if (stopped) return;
      const channel = client.channel(name, latest.current.private ? { config: { private: true } } : undefined);
      latest.current.listeners.forEach((l, i) => {
        if (l.kind === "broadcast") {
          channel.on("broadcast", { event: l.event }, (msg) => {
            const current = latest.current.listeners[i];
            if (current?.kind === "broadcast") current.onMessage(msg);
          });
        } else {
          channel.on("postgres_changes", { event: l.event ?? "*", schema: "public", table: l.table, ...(l.filter ? { filter: l.filter } : {}) }, (payload: ChangePayload<TableName>) => {
            const current = latest.current.listeners[i];
            if (current?.kind === "changes") current.onChange(payload);
          });
        }
      });
      // The join reply (SUBSCRIBED) comes before the server listens to the database: Realtime
      // confirms postgres_changes with a later system message ("Subscribed to PostgreSQL"), and
      // a change committed in between is never sent. Channels with table listeners catch up
      // again on that message, so nothing written around the join is missed.
      if (latest.current.listeners.some((l) => l.kind === "changes")) {
        channel.on("system", {}, (msg: { extension?: string; status?: string }) => {
          if (msg.extension === "postgres_changes" && msg.status === "ok") latest.current.onSubscribed?.();
        });
      }
      channel.subscribe((status) => {
        if (status === "SUBSCRIBED") latest.current.onSubscribed?.();
      });
      stop = () => void client.removeChannel(channel);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [name, shape]);
}
