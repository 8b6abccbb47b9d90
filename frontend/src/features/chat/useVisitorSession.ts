// A visitor always chats with a session of their own: an anonymous one when not signed
// in (the bot-auth guard does this for the chat page; embeds and the widget have no guard).
import { useEffect, useState } from "react";
import { useSession } from "../auth/session";

export function useVisitorSession() {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (session.status !== "ready" || session.session) return;
    let cancelled = false;
    void import("../../lib/supabase").then(async ({ getSupabase }) => {
      const { error: e } = await getSupabase().auth.signInAnonymously();
      if (!cancelled && e) setError(e.code ?? "anonymous_sign_in_failed");
    });
    return () => {
      cancelled = true;
    };
  }, [session.status, session.session]);
  const user = session.session ? session.user : null;
  return { user, ready: !!user, error, anonymous: !!user?.is_anonymous };
}
