// For pages reached from an auth link or redirect (confirm, reset, invite, OAuth callback):
// settle the session the URL carries. supabase-js already exchanges a PKCE ?code while it
// initialises (getSession waits for that); if it did not (e.g. it started before the page),
// exchange here. Hash tokens (admin invites and magic links have no PKCE) are set directly; an
// e-mail's token hash (#token_hash=…&type=…, the templates' links) is verified with verifyOtp.
// Errors from the URL or the exchange are returned for the page to show. An account with a verified
// second factor lands at aal1: `secondFactor` tells the page to send it to the code step.
import { useEffect, useState } from "react";
import type { Session } from "@supabase/supabase-js";
import { needsSecondFactor } from "../../data/auth/mfa";
import { useAuthDeps } from "./deps";
import { failureFromUrl, toFailure, type AuthFailure } from "./errors";

export type LandingState =
  | { status: "loading" }
  /** secondFactor: the account has a verified factor this session has not used (aal1 → aal2): the code step comes first. */
  | { status: "session"; session: Session; fromUrl: boolean; secondFactor: boolean }
  | { status: "none" }
  | { status: "error"; failure: AuthFailure };

function cleanUrl() {
  const url = new URL(window.location.href);
  for (const k of ["code", "error", "error_code", "error_description"]) url.searchParams.delete(k);
  window.history.replaceState(window.history.state, "", url.pathname + url.search);
}

/** The e-mail links' verification types (supabase/templates: `#token_hash=...&type=...`). */
const HASH_TYPES = ["email", "signup", "recovery", "invite", "magiclink", "email_change"] as const;
type HashType = (typeof HASH_TYPES)[number];
const isHashType = (t: string | null): t is HashType => !!t && (HASH_TYPES as readonly string[]).includes(t);

export function useLandingSession(): LandingState {
  const { client } = useAuthDeps();
  const [state, setState] = useState<LandingState>({ status: "loading" });

  useEffect(() => {
    let cancelled = false;
    const search = window.location.search;
    const hash = window.location.hash;
    const set = (s: LandingState) => !cancelled && setState(s);
    (async () => {
      const urlFailure = failureFromUrl(search, hash);
      if (urlFailure) {
        cleanUrl();
        return set({ status: "error", failure: urlFailure });
      }
      const supabase = await client();
      const landed = async (session: Session, fromUrl: boolean) =>
        set({ status: "session", session, fromUrl, secondFactor: await needsSecondFactor(supabase) });
      const code = new URLSearchParams(search).get("code");
      const h = new URLSearchParams(hash.replace(/^#/, ""));
      // An e-mail link (token hash in the fragment, never sent to a server): verified here, so
      // it works in any browser or device, not only in the one that asked for it.
      const tokenHash = h.get("token_hash");
      const hashType = h.get("type");
      if (tokenHash && isHashType(hashType)) {
        cleanUrl();
        const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: hashType });
        if (error || !data.session)
          return set({ status: "error", failure: toFailure(error ?? { code: "session_not_found" }) });
        return landed(data.session, true);
      }
      const accessToken = h.get("access_token");
      const refreshToken = h.get("refresh_token");
      if (accessToken && refreshToken) {
        const { data, error } = await supabase.auth.setSession({
          access_token: accessToken,
          refresh_token: refreshToken,
        });
        cleanUrl();
        if (error || !data.session)
          return set({ status: "error", failure: toFailure(error ?? { code: "session_not_found" }) });
        return landed(data.session, true);
      }
      const { data } = await supabase.auth.getSession();
      if (code) {
        if (data.session) {
          cleanUrl();
          return landed(data.session, true);
        }
        const { data: exchanged, error } = await supabase.auth.exchangeCodeForSession(code);
        cleanUrl();
        if (error || !exchanged.session)
          return set({ status: "error", failure: toFailure(error ?? { code: "session_not_found" }) });
        return landed(exchanged.session, true);
      }
      // A bot visitor's anonymous session is nobody's sign-in: the page shows its "no session" state.
      if (data.session && !data.session.user.is_anonymous) return landed(data.session, false);
      set({ status: "none" });
    })().catch((err) => set({ status: "error", failure: toFailure(err) }));
    return () => {
      cancelled = true;
    };
  }, [client]);

  return state;
}
