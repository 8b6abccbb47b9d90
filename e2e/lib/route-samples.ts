// Sample URLs for the route table (frontend/src/app/routes.ts): seeded ids for every route
// param (supabase/seed.sql), content slugs from frontend/content, and who opens each route
// (its guard decides). A route whose params have no sample here is reported by the specs
// that walk the table (e2e/routes.spec.ts, e2e/languages.spec.ts), so a later route is
// covered or flagged.
import fs from "node:fs";
import path from "node:path";
import type { RouteDef } from "../../frontend/src/app/routes.ts";
import { repoRoot } from "./app.ts";

// Seeded rows (supabase/seed.sql).
export const SEED = {
  publicBot: "c0000000-0000-4000-8000-000000000001",
  passwordBot: "c0000000-0000-4000-8000-000000000002",
  team: "b0000000-0000-4000-8000-000000000001",
  dataSource: "e7000000-0000-4000-8000-000000000001",
  sharedChat: "f9000000-0000-4000-8000-000000000001",
  ownerUser: "a0000000-0000-4000-8000-000000000001",
};

/** The slugs of a content collection (English files, sorted). */
export function contentSlugs(collection: string | undefined): string[] {
  if (!collection) throw new Error("a :slug route needs meta.collection");
  const slugs = fs
    .readdirSync(path.join(repoRoot, "frontend", "content", collection))
    .filter((f) => /^[a-z0-9-]+\.md$/.test(f))
    .map((f) => f.replace(/\.md$/, ""))
    .sort();
  if (!slugs.length) throw new Error(`no content in ${collection}`);
  return slugs;
}

/**
 * A sample value for every route param name: seeded ids where the seed has the row, random
 * well-formed ids for screens of later issues (their placeholder or "not found" state must
 * render cleanly too). Splats are per route.
 */
export const PARAMS: Record<string, (def: RouteDef) => string> = {
  botId: () => SEED.publicBot,
  teamId: () => SEED.team,
  chatId: () => SEED.sharedChat,
  dataSourceId: () => SEED.dataSource,
  userId: () => SEED.ownerUser,
  // The seed's test run, task, power-up and channel of the public bot (supabase/seed.sql).
  testRunId: () => "f4100000-0000-4000-8000-000000000001",
  taskId: () => "e2200000-0000-4000-8000-000000000001",
  functionId: () => "f8000000-0000-4000-8000-000000000001",
  channelId: () => "d1000000-0000-4000-8000-000000000001",
  slug: (def) => contentSlugs(def.meta?.collection)[0]!,
};
export const SPLATS: Record<string, string> = {
  pages: contentSlugs("pages")[0]!,
  "app.conversations": `bot/${SEED.publicBot}/chat/${SEED.sharedChat}`,
};

export function paramNames(def: RouteDef): string[] {
  return [...def.path.matchAll(/:([\w-]+)/g)].map((m) => m[1]!).concat(def.path.endsWith("*") ? ["*"] : []);
}

/** The unprefixed URL of a route with its params replaced (overrides first). */
export function fill(def: RouteDef, overrides: Record<string, string> = {}): string {
  let url = def.path;
  for (const name of paramNames(def)) {
    const value = overrides[name] ?? (name === "*" ? SPLATS[def.id] : PARAMS[name]?.(def));
    if (value === undefined) throw new Error(`route ${def.id} (${def.path}): no sample value for param "${name}" in e2e/lib/route-samples.ts`);
    url = name === "*" ? url.replace(/\/\*$/, value ? `/${value}` : "") : url.replace(`:${name}`, value);
  }
  return url;
}

export const localize = (prefix: string, url: string) => (prefix && url === "/" ? prefix : prefix + url);

/**
 * Who opens a route: the guard decides. "visitor" is signed out; a "bot-visitor" keeps the
 * anonymous session a bot page gives it, as someone chatting does.
 */
export type Identity = "visitor" | "bot-visitor" | "owner" | "platform-admin";
const IDENTITY_BY_GUARD: Record<string, Identity> = { none: "visitor", "bot-auth": "bot-visitor", auth: "owner", "admin-auth": "platform-admin" };
export const identityOf = (def: RouteDef): Identity | undefined =>
  def.path.startsWith("/bots/") && !def.guard ? "bot-visitor" : IDENTITY_BY_GUARD[def.guard ?? "none"];
export const EMAILS: Record<Exclude<Identity, "visitor" | "bot-visitor">, string> = { owner: "owner@parley.test", "platform-admin": "platform-admin@parley.test" };
export const PASSWORD = "parley-demo-123";
