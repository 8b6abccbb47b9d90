// Route guards ("route middleware"). A route names its guard in the route table; the
// router runs it in the route's loader, after redirects and validation. Permission
// decisions are Postgres's: the admin guard asks a SQL function and never decides itself.
import { data, redirect } from "react-router";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { LocaleCode } from "../i18n/locales";
import { localizePath } from "../i18n/locales";

export interface GuardContext {
  request: Request;
  params: Record<string, string | undefined>;
  locale: LocaleCode;
}

export type Guard = (ctx: GuardContext) => Promise<void>;
export type ClientProvider = () => Promise<SupabaseClient>;

const defaultClient: ClientProvider = async () => (await import("../lib/supabase")).getSupabase();

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

export function createGuards(getClient: ClientProvider = defaultClient): Record<string, Guard> {
  async function requireSession(ctx: GuardContext) {
    const client = await getClient();
    const { data: session } = await client.auth.getSession();
    if (!session.session) throw loginRedirect(ctx.request, ctx.locale);
    return client;
  }
  return {
    auth: async (ctx) => {
      await requireSession(ctx);
    },
    "admin-auth": async (ctx) => {
      const client = await requireSession(ctx);
      const { data: isAdmin, error } = await client.rpc("is_platform_admin");
      // A missing function (not migrated yet) or any error counts as "not an administrator".
      if (error || isAdmin !== true) {
        throw data({ code: "forbidden", path: new URL(ctx.request.url).pathname }, { status: 403, statusText: "Forbidden" });
      }
    },
    "bot-auth": async () => {
      // A bot visitor needs a session of their own: an anonymous one when not signed in.
      // Password-protected bots are added by the chat issue.
      const client = await getClient();
      const { data: session } = await client.auth.getSession();
      if (session.session) return;
      const { error } = await client.auth.signInAnonymously();
      if (error) throw Object.assign(new Error(error.message), { code: error.code ?? "anonymous_sign_in_failed" });
    },
  };
}

export function resolveGuard(guards: Record<string, Guard>, name: string): Guard {
  const guard = Object.prototype.hasOwnProperty.call(guards, name) ? guards[name] : undefined;
  if (!guard) throw new UnknownMiddlewareError(name);
  return guard;
}
