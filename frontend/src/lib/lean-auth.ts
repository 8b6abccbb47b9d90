// The visitor's auth client (its own chunk): @supabase/auth-js as supabase-js and @supabase/ssr's
// createBrowserClient configure it for the app (lib/supabase.ts), so both read and write the
// same session cookies (sb-<project ref>-auth-token, base64url, path /, SameSite=Lax, 400 days).
import { AuthClient, type GoTrueClient } from "@supabase/auth-js";
import { createStorageFromOptions } from "@supabase/ssr/dist/module/cookies";
import { SESSION_COOKIE_OPTIONS } from "./session-cookie";

export function createAuth(supabaseUrl: string, key: string): GoTrueClient {
  const { storage } = createStorageFromOptions(
    { cookieEncoding: "base64url", cookieOptions: { ...SESSION_COOKIE_OPTIONS } },
    false,
  );
  return new AuthClient({
    url: `${supabaseUrl}/auth/v1`,
    headers: { Authorization: `Bearer ${key}`, apikey: key, "X-Client-Info": "parley-visitor" },
    storageKey: `sb-${new URL(supabaseUrl).hostname.split(".")[0]}-auth-token`,
    autoRefreshToken: true,
    persistSession: true,
    detectSessionInUrl: true,
    flowType: "pkce",
    storage,
  });
}
