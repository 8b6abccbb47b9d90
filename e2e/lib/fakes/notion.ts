// A stand-in for Notion on 127.0.0.1, as a web-standard handler (Request → Response) so the
// Deno function tests and the Node browser tests serve the same fake: the public
// integration OAuth (a consent page at /v1/oauth/authorize that sends the browser back
// with ?code&state, and /v1/oauth/token with HTTP Basic client credentials) and the REST
// API the ingest and notion-connect functions read (/v1/search, pages, block children,
// database queries). Only what Notion documents; no test-only shortcuts.

export interface FakeNotionOptions {
  /** The access token the API accepts (and /v1/oauth/token hands out). */
  token: string;
  clientId?: string;
  clientSecret?: string;
  workspaceName?: string;
}

const rich = (text: string) => [{ type: "text", plain_text: text, text: { content: text }, annotations: {} }];
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const notionError = (status: number, code: string, message: string) => json({ object: "error", status, code, message }, status);
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const NOTION_IDS = {
  page: "11111111-1111-4111-8111-111111111111",
  otherPage: "44444444-4444-4444-8444-444444444444",
  database: "22222222-2222-4222-8222-222222222222",
  databasePages: ["33333333-3333-4333-8333-333333333331", "33333333-3333-4333-8333-333333333332"],
} as const;

/** A workspace: a handbook page with nested blocks, an unrelated page, and a database of two policies. */
export function fakeNotion(opts: FakeNotionOptions) {
  const { page: pageId, otherPage, database: dbId, databasePages: dbPages } = NOTION_IDS;
  const titles: Record<string, string> = {
    [pageId]: "Onboarding handbook",
    [otherPage]: "Meeting notes",
    [dbPages[0]]: "Expense policy",
    [dbPages[1]]: "Holiday policy",
  };
  const children: Record<string, unknown[]> = {
    [pageId]: [
      { id: "b1", type: "heading_1", has_children: false, heading_1: { rich_text: rich("First week") } },
      { id: "b2", type: "paragraph", has_children: false, paragraph: { rich_text: rich("On your first day you receive a laptop and a badge.") } },
      { id: "b3", type: "toggle", has_children: true, toggle: { rich_text: rich("Security basics") } },
      { id: "b4", type: "heading_2", has_children: false, heading_2: { rich_text: rich("Tools") } },
      { id: "b5", type: "bulleted_list_item", has_children: false, bulleted_list_item: { rich_text: rich("Slack for chat") } },
    ],
    b3: [{ id: "b3a", type: "paragraph", has_children: false, paragraph: { rich_text: rich("Enable two-factor authentication on every account.") } }],
    [otherPage]: [{ id: "m1", type: "paragraph", has_children: false, paragraph: { rich_text: rich("Weekly meeting on Mondays.") } }],
    [dbPages[0]]: [{ id: "e1", type: "paragraph", has_children: false, paragraph: { rich_text: rich("Expenses are reimbursed within ten days.") } }],
    [dbPages[1]]: [{ id: "h1", type: "paragraph", has_children: false, paragraph: { rich_text: rich("Everyone gets twenty-five days of holiday.") } }],
  };
  const pageObject = (id: string) => ({
    object: "page",
    id,
    url: `https://www.notion.so/${id.replace(/-/g, "")}`,
    last_edited_time: "2026-11-01T00:00:00.000Z",
    archived: false,
    icon: id === pageId ? { type: "emoji", emoji: "📘" } : null,
    parent: dbPages.includes(id as never) ? { type: "database_id", database_id: dbId } : { type: "workspace", workspace: true },
    properties: { Name: { id: "title", type: "title", title: rich(titles[id]!) } },
  });
  const databaseObject = {
    object: "database",
    id: dbId,
    url: `https://www.notion.so/${dbId.replace(/-/g, "")}`,
    last_edited_time: "2026-10-01T00:00:00.000Z",
    archived: false,
    icon: { type: "emoji", emoji: "🗂️" },
    parent: { type: "workspace", workspace: true },
    title: rich("Policies"),
  };

  const clientId = opts.clientId ?? "parley-notion-client";
  const clientSecret = opts.clientSecret ?? "parley-notion-secret";
  const codes = new Map<string, string>(); // code → redirect_uri
  const calls: string[] = [];

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const { pathname, searchParams } = url;
    calls.push(`${req.method} ${pathname}`);

    if (pathname === "/v1/oauth/authorize" && req.method === "GET") {
      const redirect = searchParams.get("redirect_uri") ?? "";
      const state = searchParams.get("state") ?? "";
      if (searchParams.get("client_id") !== clientId || searchParams.get("response_type") !== "code" || !/^https?:\/\//.test(redirect)) {
        return new Response("invalid OAuth request", { status: 400 });
      }
      const code = `code-${crypto.randomUUID()}`;
      codes.set(code, redirect);
      const allow = new URL(redirect);
      allow.searchParams.set("code", code);
      allow.searchParams.set("state", state);
      const deny = new URL(redirect);
      deny.searchParams.set("error", "access_denied");
      deny.searchParams.set("state", state);
      const html = `<!doctype html><html lang="en"><head><title>Notion</title><link rel="icon" href="data:,"></head><body>
        <h1>Parley would like to access ${escapeHtml(opts.workspaceName ?? "Acme workspace")}</h1>
        <p>Pages shared: Onboarding handbook, Meeting notes, Policies</p>
        <a href="${escapeHtml(allow.toString())}">Allow access</a> <a href="${escapeHtml(deny.toString())}">Cancel</a></body></html>`;
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    }

    if (pathname === "/v1/oauth/token" && req.method === "POST") {
      const basic = `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
      if (req.headers.get("authorization") !== basic) return json({ error: "invalid_client", error_description: "Invalid client credentials." }, 401);
      const body = (await req.json().catch(() => ({}))) as { grant_type?: string; code?: string; redirect_uri?: string };
      const redirect = body.code ? codes.get(body.code) : undefined;
      if (body.grant_type !== "authorization_code" || !redirect || redirect !== body.redirect_uri) {
        return json({ error: "invalid_grant", error_description: "Invalid code." }, 400);
      }
      codes.delete(body.code!);
      return json({
        access_token: opts.token,
        token_type: "bearer",
        bot_id: "b0b0b0b0-0000-4000-8000-000000000001",
        workspace_id: "c0c0c0c0-0000-4000-8000-000000000001",
        workspace_name: opts.workspaceName ?? "Acme workspace",
        workspace_icon: null,
        owner: { type: "user", user: { object: "user", id: "d0d0d0d0-0000-4000-8000-000000000001", name: "Ada Owner", person: { email: "ada@notion.test" } } },
        duplicated_template_id: null,
      });
    }

    if (!pathname.startsWith("/v1/")) return new Response("not found", { status: 404 });
    if (req.headers.get("authorization") !== `Bearer ${opts.token}` || !req.headers.get("notion-version")) {
      return notionError(401, "unauthorized", "API token is invalid.");
    }
    if (pathname === "/v1/search" && req.method === "POST") {
      const body = (await req.json().catch(() => ({}))) as { query?: string; start_cursor?: string; page_size?: number };
      const q = (body.query ?? "").toLowerCase();
      const all = [databaseObject, ...[pageId, otherPage, ...dbPages].map(pageObject)].filter((o) => {
        const title = o.object === "database" ? "Policies" : titles[o.id]!;
        return !q || title.toLowerCase().includes(q);
      });
      const start = Number(body.start_cursor ?? 0);
      const size = Math.min(body.page_size ?? 100, 100);
      const more = start + size < all.length;
      return json({ object: "list", results: all.slice(start, start + size), has_more: more, next_cursor: more ? String(start + size) : null });
    }
    let m = /^\/v1\/pages\/([\w-]+)$/.exec(pathname);
    if (m && titles[m[1]!]) return json(pageObject(m[1]!));
    m = /^\/v1\/blocks\/([\w-]+)\/children$/.exec(pathname);
    if (m && children[m[1]!]) {
      // three blocks per page of results, to exercise the cursor
      const all = children[m[1]!]!;
      const start = Number(searchParams.get("start_cursor") ?? 0);
      const more = start + 3 < all.length;
      return json({ object: "list", results: all.slice(start, start + 3), has_more: more, next_cursor: more ? String(start + 3) : null });
    }
    m = /^\/v1\/databases\/([\w-]+)\/query$/.exec(pathname);
    if (m && m[1] === dbId && req.method === "POST") {
      await req.json().catch(() => ({}));
      return json({ object: "list", results: dbPages.map(pageObject), has_more: false, next_cursor: null });
    }
    return notionError(404, "object_not_found", "Not found");
  }

  return { handle, pageId, dbId, otherPage, dbPages, calls, clientId, clientSecret };
}
