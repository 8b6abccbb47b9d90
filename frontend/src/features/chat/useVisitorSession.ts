// A visitor chats with a session of their own: an anonymous one when not signed in. It is
// made when first needed (the first message, the first image, the password of a protected
// bot, or a chat named in the URL), not when the page opens: people and crawlers who only look
// create no users, and a network with many visitors spends the per-IP sign-in limit only on
// those who write.
import { useCallback, useEffect, useState } from "react";
import { useSession } from "../../lib/session";
import { AppError } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";

let pending: Promise<string> | null = null;

/** The visitor's user id, signing in anonymously first when there is no session. */
async function ensureVisitor(): Promise<string> {
  const auth = (await loadSupabase()).auth;
  const { data } = await auth.getSession();
  if (data.session) return data.session.user.id;
  pending ??= auth
    .signInAnonymously()
    .then(({ data: signedIn, error }) => {
      if (error || !signedIn.user) {
        const status = error?.status ?? 0;
        // GoTrue: 429 over_request_rate_limit when this network made too many new sessions.
        const code = status === 429 ? "sign_in_rate_limited" : (error?.code ?? "anonymous_sign_in_failed");
        throw new AppError({ status, code, message: error?.message ?? "No session" });
      }
      return signedIn.user.id;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

export function useVisitorSession({ eager = false }: { eager?: boolean } = {}) {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  const user = session.session ? session.user : null;

  const ensure = useCallback(async (): Promise<string> => {
    if (user) return user.id;
    try {
      const id = await ensureVisitor();
      setError(null);
      return id;
    } catch (err) {
      setError(err instanceof AppError ? err.code : "anonymous_sign_in_failed");
      throw err;
    }
  }, [user]);

  useEffect(() => {
    if (eager && session.status === "ready" && !session.session) ensure().catch(() => undefined);
  }, [eager, session.status, session.session, ensure]);

  return {
    user,
    /** The stored session has been read (a visitor may still have none). */
    settled: session.status === "ready",
    ready: !!user,
    error,
    anonymous: !!user?.is_anonymous,
    ensure,
  };
}
