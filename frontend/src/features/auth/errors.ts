// GoTrue error codes → message ids. supabase-js sends X-Supabase-Api-Version, so errors
// carry GoTrue's `code`; anything unknown gets a generic text (never a stack trace).
export interface AuthFailure {
  code: string;
  message?: string;
}

const BY_CODE: Record<string, string> = {
  invalid_credentials: "auth.error.invalidCredentials",
  email_not_confirmed: "auth.error.emailNotConfirmed",
  over_request_rate_limit: "auth.error.rateLimited",
  over_email_send_rate_limit: "auth.error.rateLimited",
  user_already_exists: "auth.error.userExists",
  email_exists: "auth.error.userExists",
  weak_password: "auth.error.weakPassword",
  same_password: "auth.error.samePassword",
  signup_disabled: "auth.error.signupDisabled",
  email_provider_disabled: "auth.error.signupDisabled",
  otp_expired: "auth.error.linkExpired",
  flow_state_expired: "auth.error.linkExpired",
  flow_state_not_found: "auth.error.linkExpired",
  bad_code_verifier: "auth.error.otherBrowser",
  pkce_code_verifier_not_found: "auth.error.otherBrowser",
  session_not_found: "auth.error.sessionMissing",
  validation_failed: "auth.error.validation",
  access_denied: "auth.error.accessDenied",
  provider_disabled: "auth.error.providerDisabled",
  network: "auth.error.network",
  mfa_verification_failed: "auth.mfa.codeWrong",
  mfa_challenge_expired: "auth.mfa.codeWrong",
  mfa_challenge_not_found: "auth.mfa.codeWrong",
  mfa_factor_not_found: "auth.mfa.factorGone",
  insufficient_aal: "auth.mfa.needsAal2",
};

export function authErrorMessageId(code: string | undefined): string {
  return (code && BY_CODE[code]) || "auth.error.generic";
}

export function toFailure(err: unknown): AuthFailure {
  if (err && typeof err === "object") {
    const e = err as { code?: unknown; name?: unknown; message?: unknown; status?: unknown };
    const message = typeof e.message === "string" ? e.message : undefined;
    if (typeof e.code === "string" && e.code) return { code: e.code, message };
    if (e.name === "AuthPKCECodeVerifierMissingError") return { code: "pkce_code_verifier_not_found", message };
    if (e.name === "AuthRetryableFetchError" || e.status === 0) return { code: "network", message };
    return { code: "unknown", message };
  }
  return { code: "unknown" };
}

/** Errors carried back on a redirect (?error=…&error_code=… or the same in the #hash). */
export function failureFromUrl(search: string, hash: string): AuthFailure | null {
  for (const raw of [search, hash.replace(/^#/, "?")]) {
    const p = new URLSearchParams(raw);
    const code = p.get("error_code") || p.get("error");
    if (code) return { code, message: p.get("error_description") ?? undefined };
  }
  return null;
}
