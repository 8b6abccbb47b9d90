// The visitor's Supabase client, built from supabase-js' parts: PostgREST at once (the bot and
// the chat are read with it), auth (@supabase/auth-js, with @supabase/ssr's cookie storage, so
// the session is the app's; in a frame on another site where the frame may keep it, lib/frame-storage.ts)
// when a session is stored or the visitor starts writing, storage when an image is attached or
// shown, and realtime (@supabase/realtime-js) only when a chat is watched live. The data layer
// (src/data) gets it through loadSupabase() like the app's client: it answers the same calls
// (from, rpc, auth, storage, channel, removeChannel).
import { PostgrestClient } from "@supabase/postgrest-js";
import type { AuthChangeEvent, GoTrueClient as AuthClient, Session } from "@supabase/auth-js";
import type { RealtimeChannel, RealtimeChannelOptions, RealtimeClient, RealtimeRemoveChannelResponse } from "@supabase/realtime-js";
import type { StorageClient } from "@supabase/storage-js";
import { getConfig } from "./config";
import type { AppSupabaseClient } from "./supabase";
import { hasStoredSession } from "./supabase-ready";

type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;
type NoSession = { data: { session: null }; error: null };

export interface LeanClient {
  /** Loads the auth client now (a visitor who starts writing will need a session). */
  prepareAuth(): Promise<AuthClient>;
  client: AppSupabaseClient;
}

export function createLeanClient(): LeanClient {
  const { supabaseUrl, supabaseAnonKey: key } = getConfig();
  if (!supabaseUrl || !key) throw Object.assign(new Error("Supabase is not configured (missing URL or anon key)"), { code: "config_missing" });

  let auth: Promise<AuthClient> | undefined;
  const waiting = new Set<(a: AuthClient) => void>();
  function loadAuth(): Promise<AuthClient> {
    if (!auth) {
      auth = import("./lean-auth").then((m) => m.createAuth(supabaseUrl, key));
      auth.then((a) => {
        for (const w of [...waiting]) w(a);
        waiting.clear();
      }, () => {
        auth = undefined;
      });
    }
    return auth;
  }
  if (hasStoredSession()) void loadAuth();

  async function getSession(): Promise<Awaited<ReturnType<AuthClient["getSession"]>> | NoSession> {
    // Without a stored session and before the visitor writes, there is no session to read:
    // the auth client (25 KB) is not loaded for that.
    if (!auth && !hasStoredSession()) return { data: { session: null }, error: null };
    return (await loadAuth()).getSession();
  }
  async function sessionToken(): Promise<string | null> {
    return (await getSession()).data.session?.access_token ?? null;
  }
  /** supabase-js' fetchWithAuth: the anon key, and the session's token when there is one. */
  const authedFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (!headers.has("apikey")) headers.set("apikey", key);
    if (!headers.has("Authorization")) headers.set("Authorization", `Bearer ${(await sessionToken()) ?? key}`);
    return fetch(input, { ...init, headers });
  };

  const authFacade = {
    getSession,
    /** Listens from the moment the auth client is loaded (until then there is no session to tell). */
    onAuthStateChange(listener: AuthListener) {
      let cancelled = false;
      let stop: (() => void) | undefined;
      const attach = (a: AuthClient) => {
        if (cancelled) return;
        const { data } = a.onAuthStateChange(listener);
        stop = () => data.subscription.unsubscribe();
      };
      if (auth) void auth.then(attach);
      else waiting.add(attach);
      return { data: { subscription: { unsubscribe: () => { cancelled = true; waiting.delete(attach); stop?.(); } } } };
    },
  };
  // Every other auth method loads the client first (signInAnonymously, getUser, signOut...).
  const authProxy = new Proxy(authFacade, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof typeof target];
      return async (...args: unknown[]) => {
        const a = await loadAuth();
        const method = (a as unknown as Record<string | symbol, (...x: unknown[]) => unknown>)[prop]!;
        return method.apply(a, args);
      };
    },
  });

  const rest = new PostgrestClient(`${supabaseUrl}/rest/v1`, { fetch: authedFetch });

  let storage: Promise<StorageClient> | undefined;
  const loadStorage = () => (storage ??= import("@supabase/storage-js").then(({ StorageClient }) => new StorageClient(`${supabaseUrl}/storage/v1`, {}, authedFetch)));
  const storageFacade = {
    from: (bucket: string) =>
      new Proxy({}, {
        get: (_t, method) => async (...args: unknown[]) => {
          const api = (await loadStorage()).from(bucket) as unknown as Record<string | symbol, (...x: unknown[]) => unknown>;
          return api[method]!.apply(api, args);
        },
      }),
  };

  let realtime: Promise<RealtimeClient> | undefined;
  const loadRealtime = () =>
    (realtime ??= import("./lean-realtime").then(async (m) => {
      const client = m.createRealtime(supabaseUrl, key, sessionToken);
      // A new or refreshed session (a visitor's first message, the hourly refresh) is the
      // realtime connection's token from then on.
      authFacade.onAuthStateChange((event) => {
        if (event === "SIGNED_IN" || event === "TOKEN_REFRESHED" || event === "SIGNED_OUT") void client.setAuth();
      });
      return client;
    }));

  const client = {
    auth: authProxy,
    storage: storageFacade,
    from: (relation: string) => rest.from(relation),
    rpc: (fn: string, args?: Record<string, unknown>, options?: Parameters<typeof rest.rpc>[2]) => rest.rpc(fn, args, options),
    schema: (schema: string) => rest.schema(schema),
    channel: (name: string, opts?: RealtimeChannelOptions) => new DeferredChannel(name, opts ?? { config: {} }, loadRealtime),
    removeChannel: (channel: DeferredChannel) => channel.remove(),
  };
  return { client: client as unknown as AppSupabaseClient, prepareAuth: loadAuth };
}

/**
 * A realtime channel whose client is loaded on subscribe: `.on(...)` calls are kept and
 * replayed on the real channel, `subscribe` joins it, `remove` leaves it (or never joins).
 */
export class DeferredChannel {
  private readonly bindings: unknown[][] = [];
  private real: RealtimeChannel | undefined;
  private removed = false;
  private client: RealtimeClient | undefined;

  constructor(
    private readonly name: string,
    private readonly opts: RealtimeChannelOptions,
    private readonly load: () => Promise<RealtimeClient>,
  ) {}

  on(...args: unknown[]): this {
    this.bindings.push(args);
    return this;
  }

  subscribe(callback?: (status: string, err?: Error) => void): this {
    void this.load().then((client) => {
      if (this.removed) return;
      this.client = client;
      const channel = client.channel(this.name, this.opts);
      for (const args of this.bindings) (channel.on as (...a: unknown[]) => unknown).apply(channel, args);
      this.real = channel;
      channel.subscribe(callback);
    });
    return this;
  }

  async remove(): Promise<RealtimeRemoveChannelResponse> {
    this.removed = true;
    if (this.real && this.client) return this.client.removeChannel(this.real);
    return "ok";
  }
}
