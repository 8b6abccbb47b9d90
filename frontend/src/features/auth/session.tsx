// The current session and user as shared state, updated on every auth event (signed in,
// signed out, token refreshed, password recovery, user updated). The Supabase client is
// loaded after first render so public pages do not pay for it up front.
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";

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
const defaultLoader: Loader = () => import("../../lib/supabase");

export function SessionProvider({ children, load = defaultLoader }: { children: ReactNode; load?: Loader }) {
  const [state, setState] = useState<SessionState>(initial);
  const queryClient = useQueryClient();

  useEffect(() => {
    let cancelled = false;
    let unsubscribe: (() => void) | undefined;
    let currentUserId: string | null | undefined;
    load()
      .then(({ getSupabase }) => {
        if (cancelled) return;
        const { data } = getSupabase().auth.onAuthStateChange((event, session) => {
          const userId = session?.user?.id ?? null;
          // Another person's data must never stay in the cache after a switch of user.
          if (currentUserId !== undefined && userId !== currentUserId) queryClient.clear();
          currentUserId = userId;
          setState({ status: "ready", session, user: session?.user ?? null, lastEvent: event });
        });
        unsubscribe = () => data.subscription.unsubscribe();
      })
      .catch(() => {
        // Not configured (no URL/key): behave as signed out rather than breaking public pages.
        if (!cancelled) setState({ status: "ready", session: null, user: null, lastEvent: null });
      });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [load, queryClient]);

  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>;
}

/** The current session state; see SessionState. */
export function useSession(): SessionState {
  return useContext(SessionContext);
}
