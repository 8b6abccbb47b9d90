// GET /functions/v1/admin-platform (platform administrators): which model providers the
// platform itself can answer with. Booleans only: keys and addresses never leave the functions.
import type { KeyProvider } from "./providers.ts";

export interface AdminPlatformProvider {
  provider: KeyProvider;
  /** PARLEY_<PROVIDER>_API_KEY is set: bots without a team key use the platform's. */
  platform_key: boolean;
  /** PARLEY_<PROVIDER>_BASE_URL is set (the platform's own server or proxy). */
  base_url: boolean;
  /** The model a bot of this provider uses when it names none. */
  default_model: string;
}

export interface AdminPlatformResponse {
  providers: AdminPlatformProvider[];
}
