// Auth settings read from config.toml [auth] (the Supabase CLI's keys), with
// GoTrue's defaults where the file is silent.
import type { ServiceContext } from "../service.ts";

export interface ProviderSettings {
  enabled: boolean;
  clientId: string;
  secret: string;
  /** Base URL of the provider (GoTrue's `url`); "" means the real provider. */
  url: string;
  redirectUri: string;
  /** GoTrue's skip_nonce_check: signInWithIdToken accepts ID tokens without checking the nonce. */
  skipNonceCheck: boolean;
}

export interface RateLimits {
  /** Emails sent per hour, across the instance. */
  emailSent: number;
  /** Emails one client address may cause per hour (PARLEY_AUTH_EMAIL_PER_ADDRESS; default a fifth of email_sent, at least 2). */
  emailPerAddress: number;
  /** Emails one recipient may receive per hour from requests anyone can make (PARLEY_AUTH_EMAIL_PER_RECIPIENT; default a tenth of email_sent, at least 2). */
  emailPerRecipient: number;
  /** Sign-ins and sign-ups per 5 minutes per IP; also the failed password sign-ins an account takes per 5 minutes before it backs off. */
  signInSignUps: number;
  /** Token refreshes per 5 minutes per IP. */
  tokenRefresh: number;
  /** OTP / magic link verifications per 5 minutes per IP. */
  tokenVerifications: number;
  /** Anonymous sign-ins per hour per IP. */
  anonymousUsers: number;
}

export interface AuthSettings {
  siteUrl: string;
  additionalRedirectUrls: string[];
  jwtExpiry: number;
  refreshTokenRotation: boolean;
  refreshTokenReuseInterval: number;
  enableSignup: boolean;
  enableAnonymous: boolean;
  /** GoTrue's GOTRUE_SECURITY_MANUAL_LINKING_ENABLED (`[auth] enable_manual_linking`, off by default): linkIdentity / unlinkIdentity. */
  enableManualLinking: boolean;
  minimumPasswordLength: number;
  passwordRequirements: string;
  email: {
    enableSignup: boolean;
    doubleConfirmChanges: boolean;
    enableConfirmations: boolean;
    securePasswordChange: boolean;
    maxFrequencySeconds: number;
    otpLength: number;
    otpExpiry: number;
  };
  rateLimit: RateLimits;
  /** Header the client IP for rate limits is read from (GoTrue's GOTRUE_RATE_LIMIT_HEADER); "" means the socket. */
  rateLimitHeader: string;
  providers: Record<"google" | "notion", ProviderSettings>;
}

type Table = Record<string, unknown>;

const bool = (v: unknown, d: boolean) => (typeof v === "boolean" ? v : d);
const num = (v: unknown, d: number) => (typeof v === "number" && Number.isFinite(v) ? v : d);
const str = (v: unknown, d: string) => (typeof v === "string" ? v : d);

/** "1s", "1m0s", "60" -> seconds (Go durations as the CLI writes them). */
export function parseDuration(v: unknown, d: number): number {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || !v.trim()) return d;
  let total = 0;
  let matched = false;
  for (const m of v.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)?/g)) {
    matched = true;
    const n = Number(m[1]);
    total += m[2] === "h" ? n * 3600 : m[2] === "m" ? n * 60 : m[2] === "ms" ? n / 1000 : n;
  }
  return matched ? total : d;
}

function provider(t: Table | undefined): ProviderSettings {
  return {
    enabled: bool(t?.enabled, false),
    clientId: str(t?.client_id, ""),
    secret: str(t?.secret, ""),
    url: str(t?.url, "").replace(/\/+$/, ""),
    redirectUri: str(t?.redirect_uri, ""),
    skipNonceCheck: bool(t?.skip_nonce_check, false),
  };
}

export function readAuthSettings(ctx: ServiceContext): AuthSettings {
  const a = (ctx.config.auth ?? {}) as Table;
  const e = (a.email ?? {}) as Table;
  const rl = (a.rate_limit ?? {}) as Table;
  const ext = (a.external ?? {}) as Table;
  const emailSent = num(rl.email_sent, 2);
  const envNum = (name: string, d: number) => {
    const v = Number(process.env[name]);
    return process.env[name] && Number.isFinite(v) && v >= 0 ? v : d;
  };
  return {
    siteUrl: str(a.site_url, "http://127.0.0.1:3000").replace(/\/+$/, ""),
    additionalRedirectUrls: Array.isArray(a.additional_redirect_urls) ? a.additional_redirect_urls.filter((x): x is string => typeof x === "string" && !!x) : [],
    jwtExpiry: num(a.jwt_expiry, 3600),
    refreshTokenRotation: bool(a.enable_refresh_token_rotation, true),
    refreshTokenReuseInterval: num(a.refresh_token_reuse_interval, 10),
    enableSignup: bool(a.enable_signup, true),
    enableAnonymous: bool(a.enable_anonymous_sign_ins, false),
    enableManualLinking: bool(a.enable_manual_linking, false),
    minimumPasswordLength: num(a.minimum_password_length, 6),
    passwordRequirements: str(a.password_requirements, ""),
    email: {
      enableSignup: bool(e.enable_signup, true),
      doubleConfirmChanges: bool(e.double_confirm_changes, true),
      enableConfirmations: bool(e.enable_confirmations, false),
      securePasswordChange: bool(e.secure_password_change, false),
      maxFrequencySeconds: parseDuration(e.max_frequency, 60),
      otpLength: num(e.otp_length, 6),
      otpExpiry: num(e.otp_expiry, 3600),
    },
    rateLimit: {
      emailSent,
      emailPerAddress: envNum("PARLEY_AUTH_EMAIL_PER_ADDRESS", Math.max(2, Math.ceil(emailSent / 5))),
      emailPerRecipient: envNum("PARLEY_AUTH_EMAIL_PER_RECIPIENT", Math.max(2, Math.ceil(emailSent / 10))),
      signInSignUps: num(rl.sign_in_sign_ups, 30),
      tokenRefresh: num(rl.token_refresh, 150),
      tokenVerifications: num(rl.token_verifications, 30),
      anonymousUsers: num(rl.anonymous_users, 30),
    },
    rateLimitHeader: process.env.PARLEY_AUTH_RATE_LIMIT_HEADER ?? "",
    providers: { google: provider(ext.google as Table), notion: provider(ext.notion as Table) },
  };
}
