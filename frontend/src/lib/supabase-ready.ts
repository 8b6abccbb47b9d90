// Who needs to know when the Supabase client exists, without loading it: public pages of a
// visitor with no stored session never load supabase-js (62 KB gzipped) unless a screen needs
// data; the session state attaches to the client the moment some screen creates it.
import type { AppSupabaseClient as SupabaseClient } from "./supabase";
import { sessionKeeping } from "./frame-storage";

type Listener = (client: SupabaseClient) => void;
const listeners = new Set<Listener>();
let current: SupabaseClient | undefined;

/** Calls `listener` with the client once it is created (at once if it already is). */
export function onSupabaseClient(listener: Listener): () => void {
  if (current) listener(current);
  else listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Called by lib/supabase.ts when it creates the client. */
export function announceSupabaseClient(client: SupabaseClient): void {
  current = client;
  for (const l of [...listeners]) {
    listeners.delete(l);
    l(client);
  }
}

/**
 * Is a session stored in this browser? @supabase/ssr keeps it in cookies named
 * `sb-<project ref>-auth-token`, split into `.0`, `.1`... when long; in a frame on another
 * site the visitor's lean client may keep it under that key in the frame's storage (frame-storage.ts).
 */
export function hasStoredSession(cookies?: string): boolean {
  if (cookies === undefined) {
    const { store } = sessionKeeping();
    if (store) return store.keys().some((k) => /^sb-.+-auth-token$/.test(k));
  }
  return /(?:^|;\s*)sb-[^=;]+-auth-token(?:\.\d+)?=/.test(cookies ?? (typeof document === "undefined" ? "" : document.cookie));
}

/**
 * The client, loading supabase-js on first use (data fetchers call this, so a public page
 * pays for the library only when a screen reads data).
 */
let loading: Promise<typeof import("./supabase")> | undefined;
let customLoader: (() => Promise<SupabaseClient>) | undefined;
export async function loadSupabase(): Promise<SupabaseClient> {
  if (customLoader) return customLoader();
  // One import for every caller: concurrent imports of one module are also what Vitest's
  // module mocks mishandle (one of them gets the real module).
  loading ??= import("./supabase");
  return (await loading).getSupabase();
}

/**
 * An entry that builds its own client (the visitor's lean entry, src/visitor: supabase-js'
 * parts without realtime until needed) registers it here before anything reads data.
 */
export function setSupabaseLoader(loader: () => Promise<SupabaseClient>): void {
  customLoader = loader;
}
