// A stand-in for the Supabase client for the team/bot/account screen tests: records every
// call (table, filters, payloads, RPCs, uploads) and answers from per-test handlers, so the
// tests check what the screens send and how they show what the database answers.
import { render } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { IntlProvider } from "react-intl";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { ComponentType, ReactElement } from "react";
import base from "../src/i18n/messages/en.json";
import teams from "../src/i18n/messages/teams/en.json";
import bots from "../src/i18n/messages/bots/en.json";
import account from "../src/i18n/messages/account/en.json";
import errors from "../src/i18n/messages/errors/en.json";
import auth from "../src/i18n/messages/auth/en.json";

// auth: the account page shows auth's refusals (auth.error.*)
export const messages = { ...base, ...teams, ...bots, ...account, ...errors, ...auth } as Record<string, string>;

export interface Call {
  kind: "from" | "rpc" | "upload" | "updateUser" | "mfa" | "reauthenticate";
  table?: string;
  op?: string;
  payload?: unknown;
  filters: string[];
  name?: string;
  args?: unknown;
}

type Answer = { data: unknown; error: unknown; count?: number };
export type Handler = (call: Call) => Answer | undefined;

export const fake = {
  calls: [] as Call[],
  handlers: [] as Handler[],
  userId: "11111111-1111-1111-1111-111111111111",
  /** auth.mfa: the verified factors listFactors shows, and the session's assurance level. */
  factors: [] as { id: string; friendly_name?: string; factor_type: "totp"; status: "verified"; created_at: string; updated_at: string }[],
  aal: "aal1" as "aal1" | "aal2",
  reset() {
    this.calls = [];
    this.handlers = [];
    this.factors = [];
    this.aal = "aal1";
  },
  on(h: Handler) {
    this.handlers.push(h);
  },
  answer(call: Call): Answer {
    this.calls.push(call);
    for (const h of [...this.handlers].reverse()) {
      const a = h(call);
      if (a) return a;
    }
    return { data: call.op === "select" ? [] : null, error: null };
  },
};

function builder(table: string) {
  const call: Call = { kind: "from", table, op: "select", filters: [] };
  let settled: Promise<Answer> | null = null;
  const run = () => (settled ??= Promise.resolve().then(() => fake.answer(call)));
  const b: Record<string, unknown> = {
    select: (cols?: string) => {
      if (call.op === "select") call.filters.push(`select ${cols ?? "*"}`);
      return b;
    },
    insert: (p: unknown) => ((call.op = "insert"), (call.payload = p), b),
    update: (p: unknown) => ((call.op = "update"), (call.payload = p), b),
    delete: () => ((call.op = "delete"), b),
    eq: (c: string, v: unknown) => (call.filters.push(`eq ${c} ${String(v)}`), b),
    is: (c: string, v: unknown) => (call.filters.push(`is ${c} ${String(v)}`), b),
    order: () => b,
    single: () => run().then((a) => ({ ...a, data: Array.isArray(a.data) ? a.data[0] : a.data })),
    maybeSingle: () => run().then((a) => ({ ...a, data: Array.isArray(a.data) ? (a.data[0] ?? null) : a.data })),
    then: (ok: (a: Answer) => unknown, ko: (e: unknown) => unknown) => run().then(ok, ko),
  };
  return b;
}

export const client = {
  from: (t: string) => builder(t),
  rpc: (name: string, args: unknown) => Promise.resolve().then(() => fake.answer({ kind: "rpc", name, args, filters: [] })),
  auth: {
    getSession: async () => ({ data: { session: { access_token: "user-token", user: { id: fake.userId, email: "me@parley.test" } } } }),
    updateUser: async (attrs: unknown) => {
      const a = fake.answer({ kind: "updateUser", args: attrs, filters: [] });
      return { data: {}, error: a.error };
    },
    signOut: async () => ({ error: null }),
    reauthenticate: async () => ({ data: {}, error: fake.answer({ kind: "reauthenticate", filters: [] }).error }),
    mfa: {
      listFactors: async () => ({ data: { all: fake.factors, totp: fake.factors, phone: [] }, error: null }),
      getAuthenticatorAssuranceLevel: async () => ({
        data: { currentLevel: fake.aal, nextLevel: fake.factors.length ? "aal2" : "aal1", currentAuthenticationMethods: [] },
        error: null,
      }),
      enroll: async (args: unknown) => {
        const a = fake.answer({ kind: "mfa", name: "enroll", args, filters: [] });
        return a.error ? { data: null, error: a.error } : { data: a.data ?? { id: "f-new", type: "totp", totp: { qr_code: "data:image/svg+xml;utf-8,<svg/>", secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/x" } }, error: null };
      },
      challengeAndVerify: async (args: { factorId: string; code: string }) => {
        const a = fake.answer({ kind: "mfa", name: "challengeAndVerify", args, filters: [] });
        if (a.error) return { data: null, error: a.error };
        fake.aal = "aal2";
        if (!fake.factors.some((f) => f.id === args.factorId))
          fake.factors.push({ id: args.factorId, factor_type: "totp", status: "verified", created_at: "2026-11-28T10:00:00Z", updated_at: "2026-11-28T10:00:00Z" });
        return { data: { access_token: "aal2-token" }, error: null };
      },
      unenroll: async (args: { factorId: string }) => {
        const a = fake.answer({ kind: "mfa", name: "unenroll", args, filters: [] });
        if (a.error) return { data: null, error: a.error };
        fake.factors = fake.factors.filter((f) => f.id !== args.factorId);
        return { data: { id: args.factorId }, error: null };
      },
    },
  },
  storage: {
    from: (bucket: string) => ({
      upload: async (path: string, file: File) => fake.answer({ kind: "upload", table: bucket, name: path, payload: file.type, filters: [] }),
      getPublicUrl: (path: string) => ({ data: { publicUrl: `http://storage.test/${bucket}/${path}` } }),
    }),
  },
};

export function renderScreen(Screen: ComponentType, { path, url, extra = [] }: { path: string; url: string; extra?: { path: string; element: ReactElement }[] }) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter([{ path, Component: Screen }, ...extra], { initialEntries: [url] });
  render(
    <IntlProvider locale="en" messages={messages}>
      <QueryClientProvider client={qc}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </IntlProvider>,
  );
  return router;
}

export const teamRow = (role: "owner" | "admin", personal = false) => ({
  role,
  teams: { id: "22222222-2222-2222-2222-222222222222", name: "Acme Support", slug: "acme", personal },
});
export const TEAM_ID = "22222222-2222-2222-2222-222222222222";
