// Shared harness for the auth component tests: a page in a memory router with the real
// messages (shared + auth area) and a fake Supabase client handed in through AuthDeps.
import type { ReactElement } from "react";
import { render } from "@testing-library/react";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { vi } from "vitest";
import type { SupabaseClient } from "@supabase/supabase-js";
import { AuthDepsProvider } from "../src/features/auth/deps";
import type { AuthSettings } from "../src/data/auth/auth-settings-query";
import type { RouteDef } from "../src/app/routes";
import shared from "../src/i18n/messages/en.json";
import authEn from "../src/i18n/messages/auth/en.json";
import sharedDe from "../src/i18n/messages/de.json";
import authDe from "../src/i18n/messages/auth/de.json";

const MESSAGES: Record<string, Record<string, string>> = {
  en: { ...shared, ...authEn },
  de: { ...sharedDe, ...authDe },
};

export function fakeAuth(overrides: Record<string, unknown> = {}) {
  const auth = {
    signInWithPassword: vi.fn(async () => ({ data: { session: { user: { id: "u1" } } }, error: null })),
    signUp: vi.fn(async () => ({ data: { session: null, user: { id: "u2" } }, error: null })),
    resend: vi.fn(async () => ({ data: {}, error: null })),
    resetPasswordForEmail: vi.fn(async () => ({ data: {}, error: null })),
    updateUser: vi.fn(async () => ({ data: { user: { id: "u1" } }, error: null })),
    getSession: vi.fn(async () => ({ data: { session: null } })),
    exchangeCodeForSession: vi.fn(async () => ({
      data: { session: null },
      error: { code: "flow_state_not_found", message: "invalid flow state" },
    })),
    setSession: vi.fn(async () => ({ data: { session: null }, error: { code: "session_not_found" } })),
    signInWithOAuth: vi.fn(async () => ({ data: {}, error: null })),
    signOut: vi.fn(async () => ({ error: null })),
    // auth.mfa: no factor and aal1 unless a test says otherwise.
    mfa: {
      getAuthenticatorAssuranceLevel: vi.fn(async () => ({ data: { currentLevel: "aal1", nextLevel: "aal1", currentAuthenticationMethods: [] }, error: null })),
      listFactors: vi.fn(async () => ({ data: { all: [], totp: [], phone: [] }, error: null })),
      challengeAndVerify: vi.fn(async () => ({ data: {}, error: null })),
    },
    ...overrides,
  };
  const rpc = vi.fn(async (_fn: string, _args?: unknown): Promise<{ data: unknown; error: unknown }> => ({
    data: null,
    error: null,
  }));
  const client = { auth, rpc } as unknown as SupabaseClient;
  return { client, auth, rpc };
}

export const session = (email = "ana@example.test", extra: Record<string, unknown> = {}) => ({
  access_token: "a",
  refresh_token: "r",
  user: { id: "u1", email, is_anonymous: false, user_metadata: {}, ...extra },
});

export function renderPage(
  page: ReactElement,
  {
    url,
    path,
    client,
    settings,
    def,
    locale = "en",
  }: {
    url: string;
    path: string;
    client: SupabaseClient;
    settings?: Partial<AuthSettings>;
    def?: Partial<RouteDef>;
    locale?: "en" | "de";
  },
) {
  function Landed() {
    const loc = useLocation();
    return <p data-testid="landed">{loc.pathname + loc.search}</p>;
  }
  const router = createMemoryRouter(
    [
      {
        path,
        element: page,
        handle: {
          def: {
            id: "t",
            path,
            layout: "basic",
            title: "page.auth.login.title",
            component: async () => ({ default: () => null }),
            ...def,
          },
          locale,
        },
      },
      { path: "*", element: <Landed /> },
    ],
    { initialEntries: [url] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const fullSettings: AuthSettings = {
    external: { google: false, notion: false, email: true },
    disable_signup: false,
    mailer_autoconfirm: false,
    ...settings,
  };
  render(
    <QueryClientProvider client={queryClient}>
      <IntlProvider locale={locale} messages={MESSAGES[locale]!} defaultLocale="en">
        <AuthDepsProvider
          value={{
            client: async () => client,
            settings: async () => fullSettings,
            siteUrl: () => "https://parley.test",
          }}
        >
          <RouterProvider router={router} />
        </AuthDepsProvider>
      </IntlProvider>
    </QueryClientProvider>,
  );
  return router;
}
