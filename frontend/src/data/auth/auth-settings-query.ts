// GET /auth/v1/settings: which providers are enabled, whether sign-up is open.
import { useQuery } from "@tanstack/react-query";
import { getConfig } from "../../lib/config";
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

export async function fetchAuthSettings(): Promise<AuthSettings> {
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  const res = await fetch(`${supabaseUrl}/auth/v1/settings`, { headers: { apikey: supabaseAnonKey } });
  if (!res.ok) throw Object.assign(new Error(`auth settings: HTTP ${res.status}`), { code: "auth_settings_failed" });
  return (await res.json()) as AuthSettings;
}

export function useAuthSettingsQuery(fetcher: () => Promise<AuthSettings> = fetchAuthSettings) {
  return useQuery({ queryKey: authKeys.settings(), queryFn: fetcher, staleTime: 5 * 60_000 });
}

export function minPasswordLength(s: AuthSettings | undefined): number {
  const n = s?.password_min_length;
  return typeof n === "number" && n > 0 ? n : DEFAULT_MIN_PASSWORD_LENGTH;
}
