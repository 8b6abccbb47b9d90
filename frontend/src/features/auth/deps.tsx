// What the auth screens need from outside: the Supabase client, the auth settings and the
// site URL. A context so component tests can hand in fakes; the app uses the defaults.
import { createContext, useContext, type ReactNode } from "react";
import type { AppSupabaseClient } from "../../lib/supabase";
import { loadSupabase } from "../../lib/supabase-ready";
import { fetchAuthSettings, type AuthSettings } from "../../data/auth/auth-settings-query";

export interface AuthDeps {
  client: () => Promise<AppSupabaseClient>;
  settings: () => Promise<AuthSettings>;
  siteUrl: () => string;
}

const defaults: AuthDeps = {
  client: loadSupabase,
  settings: fetchAuthSettings,
  siteUrl: () => window.location.origin,
};

const AuthDepsContext = createContext<AuthDeps>(defaults);

export function AuthDepsProvider({ value, children }: { value: Partial<AuthDeps>; children: ReactNode }) {
  return <AuthDepsContext.Provider value={{ ...defaults, ...value }}>{children}</AuthDepsContext.Provider>;
}

export function useAuthDeps(): AuthDeps {
  return useContext(AuthDepsContext);
}
