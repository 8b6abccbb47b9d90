// Supabase clients for functions, typed with the generated Database: as the caller (RLS
// decides) or, only where a function must, as the service role.
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import type { Database } from "./database.types.ts";
import { env } from "./env.ts";

export type Db = SupabaseClient<Database>;

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

/** A client that passes the caller's Authorization through, so Postgres sees the caller's role and claims. */
export function createUserClient(req: Request): Db {
  const authorization = req.headers.get("Authorization") ?? `Bearer ${env.anonKey}`;
  return createClient<Database>(env.supabaseUrl, env.anonKey, {
    auth: noSession,
    global: { headers: { Authorization: authorization } },
  });
}

let service: Db | undefined;

/** The service-role client: bypasses RLS. Use only for work no caller may do (secrets, cross-tenant writes). */
export function createServiceClient(): Db {
  service ??= createClient<Database>(env.supabaseUrl, env.serviceRoleKey, { auth: noSession });
  return service;
}
