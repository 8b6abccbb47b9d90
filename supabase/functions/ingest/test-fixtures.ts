// Local stand-ins for what the ingest function reads, for the deno tests: a small
// website (sitemap, robots rules, redirects, broken links), Notion's REST API and
// YouTube's watch page / timedtext / RSS feeds, all on 127.0.0.1; plus helpers to
// make a team, a bot and data sources as a signed-in user, and to wait for jobs.
import { callFunction, serviceClient, signedInUser } from "../_shared/testing.ts";

export interface Fixture {
  url: string;
  close(): Promise<void>;
}

function serve(handler: (req: Request, base: string) => Response | Promise<Response>): Fixture {
  let base = "";
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => handler(req, base));
  base = `http://127.0.0.1:${server.addr.port}`;
  return { url: base, close: () => server.shutdown() };
}

const page = (title: string, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body>
      <nav><a href="/">Home</a> <a href="/guide/install">Install</a></nav>
      <main>${body}</main><footer>Acme Docs footer</footer></body></html>`,
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );

/** A docs site whose pages the test may change or remove. */
export function website() {
  const pages = new Map<string, { title: string; body: string }>([
    [
      "/",
      {
        title: "Acme Docs",
        body: `<h1>Acme Docs</h1><p>Welcome to the Acme documentation.</p>
      <a href="/guide/install">Install</a> <a href="/guide/billing">Billing</a> <a href="/old-install">Old</a>
      <a href="/broken">Broken</a> <a href="/private/secret">Secret</a> <a href="/to-metadata">Metadata</a>
      <a href="https://elsewhere.example/">Elsewhere</a> <a href="/guide/install#requirements">Anchor</a>`,
      },
    ],
    [
      "/guide/install",
      {
        title: "Install",
        body: `<h1>Install</h1><p>Install the command line tool with npm install -g acme-cli.
      Then run acme login to connect your account.</p><h2 id="requirements">Requirements</h2><p>Acme needs Node 20 or later.</p>`,
      },
    ],
    [
      "/guide/billing",
      {
        title: "Billing",
        body: `<h1>Billing</h1><h2>Invoices</h2><p>Invoices are emailed on the first day of each month.</p>
      <h2>Refunds</h2><p>Refunds are possible within thirty days of a payment.</p>`,
      },
    ],
    ["/orphan", { title: "Glossary", body: `<h1>Glossary</h1><p>A workspace is a shared folder of notebooks.</p>` }],
    ["/private/secret", { title: "Secret", body: "<p>robots.txt forbids this page.</p>" }],
  ]);
  const requested: string[] = [];
  const unavailable = new Set<string>();
  const fixture = serve((req, base) => {
    const { pathname } = new URL(req.url);
    requested.push(pathname);
    if (unavailable.has(pathname)) return new Response("try later", { status: 503 });
    if (pathname === "/robots.txt") {
      return new Response(`User-agent: *\nDisallow: /private/\n\nSitemap: ${base}/sitemap.xml\n`);
    }
    if (pathname === "/sitemap.xml") {
      const urls = [...pages.keys()].map((p) => `<url><loc>${base}${p}</loc></url>`).join("");
      return new Response(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        {
          headers: { "content-type": "application/xml" },
        },
      );
    }
    if (pathname === "/old-install")
      return new Response(null, { status: 301, headers: { location: "/guide/install" } });
    if (pathname === "/to-metadata") {
      return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
    }
    const p = pages.get(pathname);
    return p
      ? page(p.title, p.body)
      : new Response("<h1>Not found</h1>", { status: 404, headers: { "content-type": "text/html" } });
  });
  return { ...fixture, pages, requested, unavailable };
}

/** An endless chain of slow pages, for cancelling a crawl mid-way. */
export function slowWebsite() {
  return serve(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/robots.txt" || pathname === "/sitemap.xml") return new Response("", { status: 404 });
    const n = Number(/^\/p\/(\d+)$/.exec(pathname)?.[1] ?? 0);
    await new Promise((r) => setTimeout(r, 150));
    return page(
      `Page ${n}`,
      `<h1>Page ${n}</h1><p>Content of page number ${n}.</p><a href="/p/${n + 1}">next</a><a href="/p/${n + 2}">next 2</a>`,
    );
  });
}

const rich = (text: string) => [{ type: "text", plain_text: text, text: { content: text } }];

/** Notion's REST API: a page with nested blocks and a database with two pages. */
export function notionApi(token: string) {
  const pageId = "11111111-1111-4111-8111-111111111111";
  const dbId = "22222222-2222-4222-8222-222222222222";
  const dbPages = ["33333333-3333-4333-8333-333333333331", "33333333-3333-4333-8333-333333333332"];
  const titles: Record<string, string> = {
    [pageId]: "Onboarding handbook",
    [dbPages[0]]: "Expense policy",
    [dbPages[1]]: "Holiday policy",
  };
  const children: Record<string, unknown[]> = {
    [pageId]: [
      { id: "b1", type: "heading_1", has_children: false, heading_1: { rich_text: rich("First week") } },
      {
        id: "b2",
        type: "paragraph",
        has_children: false,
        paragraph: { rich_text: rich("On your first day you receive a laptop and a badge.") },
      },
      { id: "b3", type: "toggle", has_children: true, toggle: { rich_text: rich("Security basics") } },
      { id: "b4", type: "heading_2", has_children: false, heading_2: { rich_text: rich("Tools") } },
      {
        id: "b5",
        type: "bulleted_list_item",
        has_children: false,
        bulleted_list_item: { rich_text: rich("Slack for chat") },
      },
    ],
    b3: [
      {
        id: "b3a",
        type: "paragraph",
        has_children: false,
        paragraph: { rich_text: rich("Enable two-factor authentication on every account.") },
      },
    ],
    [dbPages[0]]: [
      {
        id: "e1",
        type: "paragraph",
        has_children: false,
        paragraph: { rich_text: rich("Expenses are reimbursed within ten days.") },
      },
    ],
    [dbPages[1]]: [
      {
        id: "h1",
        type: "paragraph",
        has_children: false,
        paragraph: { rich_text: rich("Everyone gets twenty-five days of holiday.") },
      },
    ],
  };
  const pageObject = (id: string) => ({
    object: "page",
    id,
    url: `https://www.notion.so/${id.replace(/-/g, "")}`,
    last_edited_time: "2026-11-01T00:00:00.000Z",
    properties: { Name: { id: "title", type: "title", title: rich(titles[id]) } },
  });
  const calls: string[] = [];
  const fixture = serve(async (req) => {
    const { pathname, searchParams } = new URL(req.url);
    calls.push(`${req.method} ${pathname}`);
    if (req.headers.get("authorization") !== `Bearer ${token}` || !req.headers.get("notion-version")) {
      return Response.json(
        { object: "error", status: 401, code: "unauthorized", message: "API token is invalid." },
        { status: 401 },
      );
    }
    let m = /^\/v1\/pages\/([\w-]+)$/.exec(pathname);
    if (m && titles[m[1]]) return Response.json(pageObject(m[1]));
    m = /^\/v1\/blocks\/([\w-]+)\/children$/.exec(pathname);
    if (m && children[m[1]]) {
      // two pages of results, to exercise the cursor
      const all = children[m[1]];
      const start = Number(searchParams.get("start_cursor") ?? 0);
      const results = all.slice(start, start + 3);
      const more = start + 3 < all.length;
      return Response.json({ object: "list", results, has_more: more, next_cursor: more ? String(start + 3) : null });
    }
    m = /^\/v1\/databases\/([\w-]+)\/query$/.exec(pathname);
    if (m && m[1] === dbId && req.method === "POST") {
      await req.json();
      return Response.json({ object: "list", results: dbPages.map(pageObject), has_more: false, next_cursor: null });
    }
    return Response.json(
      { object: "error", status: 404, code: "object_not_found", message: "Not found" },
      { status: 404 },
    );
  });
  return { ...fixture, pageId, dbId, calls };
}

/** YouTube: watch pages with captionTracks, json3 timedtext, and a playlist feed. */
export function youtube() {
  const videos: Record<string, { title: string; tracks: Record<string, [number, string][]> }> = {
    vid00000001: {
      title: "Getting started with Acme",
      tracks: {
        en: [
          [0, "Welcome to Acme."],
          [15_000, "First, create a workspace."],
          [40_000, "Then invite your team from the settings page."],
        ],
        de: [
          [0, "Willkommen bei Acme."],
          [15_000, "Erstellen Sie zuerst einen Arbeitsbereich."],
        ],
      },
    },
    vid00000002: {
      title: "Exporting notes",
      tracks: { en: [[0, "To export notes, open the menu and choose Export as PDF."]] },
    },
    vid00000003: { title: "No captions here", tracks: {} },
  };
  return serve((req, base) => {
    const url = new URL(req.url);
    if (url.pathname === "/watch") {
      const id = url.searchParams.get("v") ?? "";
      const v = videos[id];
      if (!v) return new Response("not found", { status: 404 });
      const captionTracks = Object.keys(v.tracks).map((lang) => ({
        baseUrl: `${base}/api/timedtext?v=${id}\\u0026lang=${lang}`,
        name: { runs: [{ text: lang }] },
        languageCode: lang,
      }));
      const player = {
        ...(captionTracks.length ? { captions: { playerCaptionsTracklistRenderer: { captionTracks } } } : {}),
        videoDetails: { videoId: id, title: v.title },
      };
      return new Response(
        `<html><head><title>${v.title} - YouTube</title></head><body><script>var ytInitialPlayerResponse = ${JSON.stringify(
          player,
        ).replace(/\\\\u0026/g, "\\u0026")};</script></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    }
    if (url.pathname === "/api/timedtext") {
      const v = videos[url.searchParams.get("v") ?? ""];
      const track = v?.tracks[url.searchParams.get("lang") ?? ""];
      if (!track || url.searchParams.get("fmt") !== "json3") return new Response("", { status: 404 });
      return Response.json({
        events: track.map(([t, text]) => ({ tStartMs: t, dDurationMs: 5000, segs: [{ utf8: text }] })),
      });
    }
    if (url.pathname === "/feeds/videos.xml" && url.searchParams.get("playlist_id") === "PLacme") {
      const entries = Object.keys(videos).map(
        (id) => `<entry><yt:videoId>${id}</yt:videoId><title>${videos[id].title}</title></entry>`,
      );
      return new Response(
        `<?xml version="1.0"?><feed xmlns:yt="http://www.youtube.com/xml/schemas/2015">${entries.join("")}</feed>`,
        {
          headers: { "content-type": "application/atom+xml" },
        },
      );
    }
    return new Response("not found", { status: 404 });
  });
}

// ---------------------------------------------------------------------------
// stack helpers

export async function ownerWithBot(language = "en", visibility = "private") {
  const owner = await signedInUser();
  const { data: team, error: teamError } = await owner.client.rpc("create_team", { name: "Ingest tests" });
  if (teamError) throw teamError;
  const { data: bot, error } = await owner.client
    .from("bots")
    .insert({ team_id: team.id, name: "Docs bot", language, visibility })
    .select("id, team_id")
    .single();
  if (error) throw error;
  return { ...owner, bot: bot as { id: string; team_id: string } };
}

export async function createSource(
  client: ReturnType<typeof serviceClient>,
  botId: string,
  type: string,
  settings: Record<string, unknown>,
  name = `${type} source`,
) {
  const { data, error } = await client
    .from("data_sources")
    .insert({ bot_id: botId, type, name, settings })
    .select("id")
    .single();
  if (error) throw error;
  return data.id as string;
}

export async function startSync(token: string, sourceId: string) {
  const res = await callFunction("ingest", { method: "POST", path: `/sources/${sourceId}/sync`, token, body: "{}" });
  const body = await res.json();
  return { status: res.status, body };
}

export interface JobRow {
  id: string;
  status: string;
  progress_done: number;
  progress_total: number;
  errors: { url: string; code: string; message: string; level: string }[];
}

export async function waitForJob(jobId: string, timeoutMs = 60_000): Promise<JobRow> {
  const service = serviceClient();
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { data } = await service.from("ingestion_jobs").select("*").eq("id", jobId).single();
    if (data && !["queued", "running"].includes(data.status)) return data as JobRow;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish in ${timeoutMs} ms`);
}

export async function syncAndWait(token: string, sourceId: string): Promise<JobRow> {
  const started = await startSync(token, sourceId);
  if (started.status !== 202) throw new Error(`sync answered ${started.status}: ${JSON.stringify(started.body)}`);
  return await waitForJob(started.body.job_id);
}

export async function documentsOf(sourceId: string) {
  const { data, error } = await serviceClient()
    .from("documents")
    .select("id, url, title, content, content_hash, metadata, chunks(id, content, heading_path)")
    .eq("data_source_id", sourceId)
    .order("url");
  if (error) throw error;
  return data as {
    id: string;
    url: string;
    title: string;
    content: string;
    content_hash: string;
    metadata: Record<string, unknown>;
    chunks: { id: string; content: string; heading_path: string }[];
  }[];
}
