import { describe, expect, it } from "vitest";
import { matchRoutes, type RouteObject } from "react-router";
import { buildRoutes } from "../src/app/router";
import { routeTable, type RouteDef } from "../src/app/routes";
import { handleOf } from "../src/app/handle";
import { LOCALE_CODES } from "../src/i18n/locales";
import { VALIDATION_RULES } from "../src/app/validation";
import en from "../src/i18n/messages/en.json";

const routes = buildRoutes({ guards: {} });

function leaves(list: RouteObject[]): RouteObject[] {
  return list.flatMap((r) => (r.children ? leaves(r.children) : [r]));
}

function defAt(url: string): RouteDef | undefined {
  const matches = matchRoutes(routes, url) ?? [];
  return handleOf(matches[matches.length - 1]?.route.handle)?.def;
}

const byPath = new Map(routeTable.map((d) => [d.path, d]));

describe("route table", () => {
  it("has unique ids and paths", () => {
    expect(new Set(routeTable.map((d) => d.id)).size).toBe(routeTable.length);
    expect(new Set(routeTable.map((d) => d.path)).size).toBe(routeTable.length);
  });

  it("generates ten variants of every route: English without prefix, nine prefixed", () => {
    const pages = leaves(routes).filter((r) => handleOf(r.handle));
    expect(pages).toHaveLength(routeTable.length * 10);
    for (const def of routeTable) {
      const variants = pages.filter((r) => handleOf(r.handle)!.def.id === def.id).map((r) => r.path);
      expect(variants).toHaveLength(10);
      expect(variants).toContain(def.path);
      for (const code of LOCALE_CODES.filter((c) => c !== "en")) {
        expect(variants).toContain(def.path === "/" ? `/${code}` : `/${code}${def.path}`);
      }
    }
  });

  it("lists every route of the spec", () => {
    const spec = [
      "/", "/faq", "/models", "/features", "/blog", "/blog/:slug", "/docs", "/docs/:slug",
      "/legal/dpa", "/legal/gdpr", "/legal/terms", "/legal/privacy", "/legal/sub-processors", "/terms", "/privacy",
      "/channels", "/channels/api", "/channels/web", "/channels/slack", "/channels/discord", "/channels/whatsapp", "/channels/telegram",
      "/data-sources", "/data-sources/web", "/data-sources/file", "/data-sources/file/csv", "/data-sources/file/pdf", "/data-sources/file/word",
      "/data-sources/file/markdown", "/data-sources/notion", "/data-sources/youtube", "/use-cases/author", "/launch-week/:slug",
      "/gallery", "/gallery/:botId", "/pages/*", "/test/widget", "/test/features",
      "/bots/:botId/sdk", "/bots/:botId/embed", "/bots/:botId/embed-center", "/bots/:botId/login", "/bots/:botId", "/bots/:botId/chats/:chatId",
      "/app/auth/login", "/app/auth/register", "/app/auth/reset", "/app/auth/invite", "/app/auth/confirm-email", "/app/auth/forgotten-password",
      "/app/auth/providers/google", "/app/auth/providers/notion", "/app/auth/providers/google/callback", "/app/auth/providers/notion/callback",
      "/app/auth/providers/shopify/callback", "/app/auth/providers/nylas/callback",
      "/app/account", "/app/teams/new", "/app/teams/:teamId", "/app/bots", "/app/bots/wizard", "/app/bots/:botId",
      "/app/bots/:botId/settings", "/app/bots/:botId/webhooks", "/app/bots/:botId/tests", "/app/bots/:botId/tests/:testRunId", "/app/bots/:botId/test-cases",
      "/app/bots/:botId/tasks", "/app/bots/:botId/tasks/new", "/app/bots/:botId/tasks/:taskId/settings",
      "/app/bots/:botId/power-ups", "/app/bots/:botId/power-ups/new", "/app/bots/:botId/power-ups/:functionId/settings",
      "/app/bots/:botId/channels", "/app/bots/:botId/channels/:channelId/settings",
      "/app/bots/:botId/data-sources", "/app/bots/:botId/data-sources/new", "/app/bots/:botId/data-source/:dataSourceId",
      "/app/bots/:botId/data-source/:dataSourceId/settings",
      ...["content", "general", "syncing", "scraping", "documents"].map((t) => `/app/bots/:botId/data-source/:dataSourceId/settings/${t}`),
      "/app/billing", "/app/billing/cancel", "/app/billing/success", "/app/my-chats", "/app/conversations/*",
      "/app/admin", "/app/admin/bots", "/app/admin/chats", "/app/admin/teams", "/app/admin/users", "/app/admin/team-members",
      "/app/admin/dashboard", ...["plans", "models", "channels", "power-ups", "providers", "data-sources"].map((p) => `/app/admin/dashboard/${p}`),
      "/app/admin/dashboard/bot/:botId", "/app/admin/dashboard/user/:userId",
    ];
    for (const path of spec) expect(byPath.has(path), path).toBe(true);
  });

  it("assigns layouts as the spec says", () => {
    for (const def of routeTable) {
      if (def.path.startsWith("/app/auth/")) expect(def.layout, def.path).toBe("basic");
      if (def.path.startsWith("/test/")) expect(def.layout, def.path).toBe("none");
    }
    expect(byPath.get("/app/bots/wizard")!.layout).toBe("app-full");
    for (const p of ["sdk", "embed", "embed-center", "login"]) expect(byPath.get(`/bots/:botId/${p}`)!.layout).toBe("none");
    expect(byPath.get("/docs/:slug")!.layout).toBe("docs");
    expect(byPath.get("/gallery")!.layout).toBe("gallery");
    expect(byPath.get("/faq")!.layout).toBe("default");
  });

  it("puts the right guard on every area", () => {
    for (const def of routeTable) {
      if (def.path.startsWith("/app/auth/")) expect(def.guard, def.path).toBeUndefined();
      else if (def.path.startsWith("/app/admin")) expect(def.guard, def.path).toBe("admin-auth");
      else if (def.path.startsWith("/app/")) expect(def.guard, def.path).toBe("auth");
      else if (def.path === "/bots/:botId" || def.path === "/bots/:botId/chats/:chatId") expect(def.guard).toBe("bot-auth");
      else expect(def.guard, def.path).toBeUndefined();
    }
  });

  it("carries role metadata: full-layout pages need owner and admin, billing owner only", () => {
    expect(byPath.get("/app/bots/wizard")!.roles).toEqual(["owner", "admin"]);
    expect(byPath.get("/app/billing")!.roles).toEqual(["owner"]);
  });

  it("uses only known validation rules and declares them on every id-like param", () => {
    for (const def of routeTable) {
      for (const rule of Object.values(def.validate ?? {})) expect(Object.keys(VALIDATION_RULES)).toContain(rule);
      for (const [, param] of def.path.matchAll(/:([A-Za-z]+)/g)) expect(def.validate?.[param!], `${def.path} ${param}`).toBeDefined();
    }
  });

  it("has an English title for every route", () => {
    for (const def of routeTable) expect((en as Record<string, string>)[def.title], def.title).toBeTruthy();
  });

  it("matches localized URLs to the right entry", () => {
    expect(defAt("/")!.id).toBe("home");
    expect(defAt("/de")!.id).toBe("home");
    expect(defAt("/jp/faq")!.id).toBe("faq");
    expect(defAt("/cn/data-sources/file/pdf")!.id).toBe("data-sources.pdf");
    expect(defAt("/app/bots/wizard")!.id).toBe("app.bots.wizard");
    expect(defAt("/pl/app/bots/6f1c1a4e-9a56-4e55-8a39-0d3c3c1d9a11")!.id).toBe("app.bot");
    expect(defAt("/nl/pages/company/about")!.id).toBe("pages");
    expect(defAt("/xx/faq")).toBeUndefined();
  });

  it("forces dark mode on several marketing pages", () => {
    const dark = routeTable.filter((d) => d.colorMode === "dark").map((d) => d.path);
    expect(dark.length).toBeGreaterThanOrEqual(3);
    expect(dark).toContain("/");
  });
});
