// GET /auth/v1/settings: which providers are enabled, whether sign-up is open.
import { useQuery } from "@tanstack/react-query";
import { getConfig } from "../../lib/config";
import { AppError } from "../../lib/errors";
import { authKeys } from "./keys";

export interface AuthSettings {
  external: Record<string, boolean>;
  disable_signup: boolean;
  mailer_autoconfirm: boolean;
  /** Not part of GoTrue's answer today; used when a server sends it. */
  password_min_length?: number;
}

/** The project's configured minimum (config.toml) when the server does not say. */
export const DEFAULT_MIN_PASSWORD_LENGTH = 8;

/** GoTrue's answer, read field by field (a missing or odd field reads as "off"). */
export function readAuthSettings(body: unknown): AuthSettings {
  const o: Record<string, unknown> = body && typeof body === "object" ? { ...body } : {};
  const external: Record<string, boolean> = {};
  if (o.external && typeof o.external === "object") for (const [k, v] of Object.entries(o.external)) external[k] = v === true;
  const min = o.password_min_length;
  return { external, disable_signup: o.disable_signup === true, mailer_autoconfirm: o.mailer_autoconfirm === true, ...(typeof min === "number" ? { password_min_length: min } : {}) };
}

export async function fetchAuthSettings(): Promise<AuthSettings> {
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  const res = await fetch(`${supabaseUrl}/auth/v1/settings`, { headers: { apikey: supabaseAnonKey } });
  if (!res.ok) throw new AppError({ status: res.status, code: "auth_settings_failed", message: `auth settings: HTTP ${res.status}` });
  return readAuthSettings(await res.json());
}

export function useAuthSettingsQuery(fetcher: () => Promise<AuthSettings> = fetchAuthSettings) {
  return useQuery({ queryKey: authKeys.settings(), queryFn: fetcher, staleTime: 5 * 60_000 });
}

export function minPasswordLength(s: AuthSettings | undefined): number {
  const n = s?.password_min_length;
  return typeof n === "number" && n > 0 ? n : DEFAULT_MIN_PASSWORD_LENGTH;
}
