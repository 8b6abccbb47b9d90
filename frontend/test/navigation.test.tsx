// The router end to end in jsdom: redirects, validation, guards (with a fake Supabase
// client), the two 404 texts, the error page and its button, and the locale-aware head.
import { describe, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import type { SupabaseClient } from "@supabase/supabase-js";
import { buildRoutes } from "../src/app/router";
import { createGuards } from "../src/app/guards";
import { routeTable, type RouteDef } from "../src/app/routes";
import { AppProviders } from "../src/app/App";
import { createQueryClient } from "../src/lib/queryClient";

const BOT = "6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11";
const placeholder = () => import("./RouteStub");

// Guarded test routes with the placeholder screen, so these tests do not depend on the real
// screens (and their data) that later issues register under /app, /bots and /app/admin.
const guardRoutes: RouteDef[] = [
  { id: "t.auth", path: "/t/auth", layout: "app", guard: "auth", title: "page.app.bots.title", component: placeholder },
  { id: "t.admin", path: "/t/admin", layout: "app-wide", guard: "admin-auth", title: "page.admin.dashboard.title", component: placeholder },
  { id: "t.bot", path: "/t/bot/:botId", layout: "app-full-flex-col", guard: "bot-auth", title: "page.bots.chat.title", validate: { botId: "uuid" }, component: placeholder },
];

interface FakeState {
  session: boolean;
  admin: boolean | "missing";
}

function fakeClient(state: FakeState) {
  const signInAnonymously = vi.fn(async () => {
    state.session = true;
    return { data: {}, error: null };
  });
  const rpc = vi.fn(async (fn: string) =>
    state.admin === "missing" ? { data: null, error: { code: "PGRST202", message: `Could not find the function public.${fn}` } } : { data: state.admin, error: null },
  );
  const client = {
    auth: {
      getSession: async () => ({ data: { session: state.session ? { user: { id: "u1" } } : null } }),
      signInAnonymously,
      mfa: { getAuthenticatorAssuranceLevel: async () => ({ data: { currentLevel: "aal1", nextLevel: "aal1" }, error: null }) },
    },
    rpc,
  } as unknown as SupabaseClient;
  return { client, signInAnonymously, rpc };
}

function setup(url: string, state: FakeState = { session: false, admin: false }, table?: readonly RouteDef[]) {
  window.matchMedia = ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {} })) as never;
  const fake = fakeClient(state);
  const router = createMemoryRouter(buildRoutes({ guards: createGuards(async () => fake.client), table: table ?? [...routeTable, ...guardRoutes] }), { initialEntries: [url] });
  render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...fake };
}

const heading = () => screen.findByRole("heading", { level: 1 });

describe("navigation", () => {
  it("renders a public page in its language with <html lang> and title", async () => {
    setup("/de/faq");
    expect(await heading()).toHaveTextContent("Häufige Fragen");
    await waitFor(() => expect(document.documentElement.lang).toBe("de"));
    await waitFor(() => expect(document.title).toBe("Häufige Fragen | Parley"));
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute("href")).toMatch(/\/de\/faq$/);
    expect(document.querySelectorAll('link[rel="alternate"]')).toHaveLength(11);
  });

  it("uses ja and zh for jp and cn", async () => {
    setup("/jp/faq");
    await heading();
    await waitFor(() => expect(document.documentElement.lang).toBe("ja"));
  });

  it("unknown route: 404 'Page not found: {path}'", async () => {
    setup("/no/such/page");
    expect(await heading()).toHaveTextContent("Page not found: /no/such/page");
  });

  it("failed validation rule: 404 'Page Not Found: {path}'", async () => {
    setup("/bots/not-a-uuid/embed");
    expect(await heading()).toHaveTextContent("Page Not Found: /bots/not-a-uuid/embed");
  });

  it("content that does not exist is a 404", async () => {
    setup("/blog/no-such-post");
    expect(await heading()).toHaveTextContent("Page not found: /blog/no-such-post");
  });

  it("the error page button clears the error and goes to /", async () => {
    const { router } = setup("/nope");
    await heading();
    await userEvent.click(screen.getByRole("button", { name: "Return to home" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(router.state.errors).toBeNull();
    expect(await screen.findByText("A chatbot that answers from your own data")).toBeInTheDocument();
  });

  it("follows the redirect table before navigating, keeping the language", async () => {
    const { router } = setup("/de/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/de/app/auth/login"));
  });

  it("auth guard sends visitors without a session to login with the way back", async () => {
    const { router } = setup("/app/bots");
    await waitFor(() => expect(router.state.location.pathname).toBe("/app/auth/login"));
    expect(router.state.location.search).toBe("?redirect=%2Fapp%2Fbots");
  });

  it("auth guard lets a signed-in user in", async () => {
    setup("/es/t/auth", { session: true, admin: false });
    expect(await heading()).toHaveTextContent("Tus bots");
  });

  it("admin-auth asks Postgres and refuses non-admins, including when the function is missing", async () => {
    const a = setup("/app/admin/users", { session: true, admin: false });
    expect(await heading()).toHaveTextContent("Forbidden");
    expect(a.rpc).toHaveBeenCalledWith("is_platform_admin");
  });

  it("admin-auth treats a missing function as not admin", async () => {
    setup("/app/admin", { session: true, admin: "missing" });
    expect(await heading()).toHaveTextContent("Forbidden");
  });

  it("admin-auth lets an administrator in", async () => {
    setup("/t/admin", { session: true, admin: true });
    expect(await heading()).toHaveTextContent("Admin dashboard");
  });

  it("bot-auth lets a visitor look without signing them in (their first message does)", async () => {
    const { signInAnonymously } = setup(`/t/bot/${BOT}`);
    expect(await heading()).toHaveTextContent("Chat");
    expect(signInAnonymously).not.toHaveBeenCalled();
  });

  it("a route naming a guard that does not exist fails with 'Unknown route middleware'", async () => {
    const table: RouteDef[] = [...routeTable, { id: "broken", path: "/broken", layout: "default", guard: "nope", title: "page.home.title", component: placeholder }];
    setup("/broken", undefined, table);
    expect(await heading()).toHaveTextContent("Unknown route middleware: 'nope'");
  });

  it("renders auth pages in the basic layout and the wizard in app-full", async () => {
    setup("/app/auth/login");
    expect(await heading()).toHaveTextContent("Log in");
    expect(document.querySelector(".layout--basic")).not.toBeNull();
  });

  it("test pages have no layout", async () => {
    setup("/test/widget");
    expect(await heading()).toHaveTextContent("Widget test");
    expect(document.querySelector(".layout")).toBeNull();
  });
});
