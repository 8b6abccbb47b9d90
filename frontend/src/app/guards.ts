// Route guards ("route middleware"). A route names its guard in the route table; the
// router runs it in the route's loader, after redirects and validation. Permission
// decisions are Postgres's: the admin guard asks a SQL function and never decides itself.
import { data, redirect } from "react-router";
import { canReadBotRow, hasBotGrantRow, isPlatformAdmin, publicBotVisibility } from "../data/auth/access-checks";
import { adminAccess, needsSecondFactor } from "../data/auth/mfa";
import type { AppSupabaseClient as SupabaseClient } from "../lib/supabase";
import { loadSupabase } from "../lib/supabase-ready";
import type { LocaleCode } from "../i18n/locales";
import { localizePath } from "../i18n/locales";
import { notFound } from "./errors";

export interface GuardContext {
  request: Request;
  params: Record<string, string | undefined>;
  locale: LocaleCode;
}

export type Guard = (ctx: GuardContext) => Promise<void>;
export type ClientProvider = () => Promise<SupabaseClient>;

const defaultClient: ClientProvider = loadSupabase;

export class UnknownMiddlewareError extends Error {
  readonly code = "unknown_route_middleware";
  constructor(name: string) {
    super(`Unknown route middleware: '${name}'`);
    this.name = "UnknownMiddlewareError";
  }
}

export function loginRedirect(request: Request, locale: LocaleCode): Response {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(`${localizePath("/app/auth/login", locale)}?redirect=${encodeURIComponent(back)}`);
}

/**
 * The sign-in's second step (/app/auth/mfa): the code of a verified factor, or, for a platform
 * administrator without one (`reason=admin`), why the admin area needs one and where to set it up.
 */
export function secondFactorRedirect(request: Request, locale: LocaleCode, reason?: "admin"): Response {
  const url = new URL(request.url);
  const params = new URLSearchParams({ redirect: url.pathname + url.search });
  if (reason) params.set("reason", reason);
  return redirect(`${localizePath("/app/auth/mfa", locale)}?${params}`);
}

export function createGuards(getClient: ClientProvider = defaultClient): Record<string, Guard> {
  async function requireSession(ctx: GuardContext) {
    const client = await getClient();
    const { data: session } = await client.auth.getSession();
    // An anonymous session (a bot visitor) is not an account: it signs in like anyone else.
    if (!session.session || session.session.user?.is_anonymous === true) throw loginRedirect(ctx.request, ctx.locale);
    // Signed in with a password, a link or a provider but a verified factor is still to be used:
    // the code step first, whatever the way in (auth answers from the session, no request).
    if (await needsSecondFactor(client)) throw secondFactorRedirect(ctx.request, ctx.locale);
    return client;
  }
  return {
    auth: async (ctx) => {
      await requireSession(ctx);
    },
    "admin-auth": async (ctx) => {
      const client = await requireSession(ctx);
      // A missing function (not migrated yet) or any error counts as "not an administrator".
      if (!(await isPlatformAdmin(client))) {
        // A platform administrator without a second factor yet is led to set one up, not refused.
        if ((await adminAccess(client)) === "aal2_required") throw secondFactorRedirect(ctx.request, ctx.locale, "admin");
        throw data({ code: "forbidden", path: new URL(ctx.request.url).pathname }, { status: 403, statusText: "Forbidden" });
      }
    },
    "bot-auth": async (ctx) => {
      // A visitor without a session may look at a public bot's chat; the page signs them in
      // anonymously when they first write (features/chat/useVisitorSession). A password bot
      // needs a grant, which needs a session: without one, its login page asks first.
      const client = await getClient();
      const botId = ctx.params.botId;
      if (botId) await checkBotAccess(client, botId, ctx);
    },
  };
}

// Postgres decides: get_public_bot shows public and password bots to anyone; a password bot
// needs an access grant for this visitor (written when the password was accepted) unless the
// visitor belongs to the bot's team; a private or unknown bot is a 404 except for members.
async function checkBotAccess(client: SupabaseClient, botId: string, ctx: GuardContext): Promise<void> {
  const visibility = await publicBotVisibility(client, botId);
  // Any other answer than a set cannot be judged here and is left to the page, whose reads
  // are under RLS anyway.
  if (visibility === undefined) return;
  const pathname = new URL(ctx.request.url).pathname;
  if (visibility === null) {
    if (await canReadBotRow(client, botId)) return;
    notFound(pathname);
  }
  if (visibility !== "password") return;
  if ((await hasBotGrantRow(client, botId)) || (await canReadBotRow(client, botId))) return;
  const url = new URL(ctx.request.url);
  throw redirect(`${localizePath(`/bots/${botId}/login`, ctx.locale)}?redirect=${encodeURIComponent(url.pathname + url.search)}`);
}

export function resolveGuard(guards: Record<string, Guard>, name: string): Guard {
  const guard = Object.prototype.hasOwnProperty.call(guards, name) ? guards[name] : undefined;
  if (!guard) throw new UnknownMiddlewareError(name);
  return guard;
}
