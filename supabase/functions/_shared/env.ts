// The environment every function reads, checked once at start-up.
function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export const env = {
  get supabaseUrl() {
    return required("SUPABASE_URL");
  },
  get anonKey() {
    return required("SUPABASE_ANON_KEY");
  },
  get serviceRoleKey() {
    return required("SUPABASE_SERVICE_ROLE_KEY");
  },
  /** The app's public address (links in emails, transcripts). */
  get siteUrl() {
    return Deno.env.get("PARLEY_SITE_URL") ?? "http://127.0.0.1:3000";
  },
  optional(name: string): string | undefined {
    return Deno.env.get(name) || undefined;
  },
};
