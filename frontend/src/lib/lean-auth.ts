// The visitor's auth client (its own chunk): @supabase/auth-js as supabase-js and @supabase/ssr's
// createBrowserClient configure it for the app (lib/supabase.ts), so both read and write the
// same session cookies (sb-<project ref>-auth-token, base64url, path /, SameSite=Lax, 400 days).
// In a frame on another site, where those cookies do not stick (the widget's iframe on a
// customer's page), the session is kept under the same key where the frame may keep it, partitioned
// by the customer's site: its localStorage or partitioned cookies (frame-storage.ts).
import { AuthClient, type GoTrueClient } from "@supabase/auth-js";
import { createStorageFromOptions } from "@supabase/ssr/dist/module/cookies";
import { sessionKeeping } from "./frame-storage";

export function createAuth(supabaseUrl: string, key: string): GoTrueClient {
  const { store, cookies } = sessionKeeping();
  const storage = store
    ? { getItem: store.getItem, setItem: store.setItem, removeItem: store.removeItem }
    : createStorageFromOptions({ cookieEncoding: "base64url", cookieOptions: { ...cookies } }, false).storage;
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
