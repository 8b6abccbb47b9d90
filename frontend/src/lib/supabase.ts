// The one Supabase client of the app. @supabase/ssr keeps the session in cookies
// (path /, SameSite=Lax, readable by scripts, 400 days) so it survives reloads and is
// shared by every tab. Created on first use: the prerender (Node) never touches it.
import { createBrowserClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import { getConfig } from "./config";
import type { Database } from "./database";
import { announceSupabaseClient } from "./supabase-ready";
import { SESSION_COOKIE_OPTIONS } from "./session-cookie";

export { SESSION_COOKIE_MAX_AGE } from "./session-cookie";

/** The app's client, typed by the generated schema: `.from("bots")` knows its columns. */
export type AppSupabaseClient = SupabaseClient<Database>;

let client: AppSupabaseClient | undefined;

export function getSupabase(): AppSupabaseClient {
  if (client) return client;
  const { supabaseUrl, supabaseAnonKey } = getConfig();
  if (!supabaseUrl || !supabaseAnonKey) {
    throw Object.assign(new Error("Supabase is not configured (missing URL or anon key)"), { code: "config_missing" });
  }
  client = createBrowserClient<Database>(supabaseUrl, supabaseAnonKey, {
    cookieOptions: { ...SESSION_COOKIE_OPTIONS },
    isSingleton: true,
  });
  announceSupabaseClient(client);
  return client;
}
