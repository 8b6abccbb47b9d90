// The current session and user as shared state, updated on every auth event (signed in,
// signed out, token refreshed, password recovery, user updated). The Supabase client is
// loaded after first render when a session is stored in this browser; without one the state
// is "signed out" at once and follows the client from the moment a screen creates it (a
// visitor reading public pages never downloads supabase-js).
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";
import { hasStoredSession, onSupabaseClient } from "./supabase-ready";

export interface SessionState {
  /** "loading" until the stored session has been read. */
  status: "loading" | "ready";
  session: Session | null;
  user: User | null;
  /** The last auth event, e.g. PASSWORD_RECOVERY for the reset page. */
  lastEvent: AuthChangeEvent | null;
}

const initial: SessionState = { status: "loading", session: null, user: null, lastEvent: null };
const SessionContext = createContext<SessionState>(initial);

type Loader = () => Promise<{
  getSupabase: () => {
    auth: {
      onAuthStateChange: (cb: (e: AuthChangeEvent, s: Session | null) => void) => {
        data: { subscription: { unsubscribe(): void } };
      };
    };
  };
}>;
const defaultLoader: Loader = () => import("./supabase");

const signedOut: SessionState = { status: "ready", session: null, user: null, lastEvent: null };

export function SessionProvider({
  children,
  load = defaultLoader,
  storedSession = hasStoredSession,
  whenCreated = onSupabaseClient,
  readyWithoutSession = false,
}: {
  children: ReactNode;
  load?: Loader;
  /** Is a session stored in this browser (so the client is worth loading now)? */
  storedSession?: () => boolean;
  /** Runs the callback once some screen has created the client. */
  whenCreated?: (cb: () => void) => () => void;
  /** A client-only root (nothing to hydrate) starts ready when no session is stored: one render less. */
  readyWithoutSession?: boolean;
}) {
  const [state, setState] = useState<SessionState>(() => (readyWithoutSession && !storedSession() ? signedOut : initial));
  const queryClient = useQueryClient();

  useEffect(() => {
    let cancelled = false;
    let unsubscribe: (() => void) | undefined;
    let currentUserId: string | null | undefined;
    const attach = () => load()
      .then(({ getSupabase }) => {
        if (cancelled) return;
        const { data } = getSupabase().auth.onAuthStateChange((event, session) => {
          const userId = session?.user?.id ?? null;
          // Another person's data must never stay in the cache after a switch of user or a
          // sign-out. Signing in from no session keeps it: what was read without one is public
          // (and a visitor's first message must not reset the chat they are writing in).
          if (currentUserId && userId !== currentUserId) queryClient.clear();
          currentUserId = userId;
          setState({ status: "ready", session, user: session?.user ?? null, lastEvent: event });
        });
        unsubscribe = () => data.subscription.unsubscribe();
      })
      .catch(() => {
        // Not configured (no URL/key): behave as signed out rather than breaking public pages.
        if (!cancelled) setState(signedOut);
      });
    let stopWaiting: (() => void) | undefined;
    if (storedSession()) void attach();
    else {
      setState(signedOut);
      stopWaiting = whenCreated(() => void attach());
    }
    return () => {
      cancelled = true;
      stopWaiting?.();
      unsubscribe?.();
    };
  }, [load, storedSession, whenCreated, queryClient]);

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

/** The current session state; see SessionState. */
export function useSession(): SessionState {
  return useContext(SessionContext);
}
