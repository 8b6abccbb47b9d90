// Local stand-ins for what the ingest function reads, for the deno tests: a small
// website (sitemap, robots rules, redirects, broken links), Notion's REST API and
// YouTube's watch page / timedtext / RSS feeds, all on 127.0.0.1; plus helpers to
// make a team, a bot and data sources as a signed-in user, and to wait for jobs.
import { callFunction, serviceClient, signedInUser } from "../_shared/testing.ts";
import { fakeNotion } from "../../../e2e/lib/fakes/notion.ts";
import { fakeYoutube } from "../../../e2e/lib/fakes/youtube.ts";

export interface Fixture {
  url: string;
  close(): Promise<void>;
}

export function serve(handler: (req: Request, base: string) => Response | Promise<Response>): Fixture {
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

/** Notion's REST API (and OAuth): a page with nested blocks and a database with two pages. */
export function notionApi(token: string) {
  const fake = fakeNotion({ token });
  return { ...serve(fake.handle), pageId: fake.pageId, dbId: fake.dbId, calls: fake.calls, fake };
}

/** YouTube: watch pages with captionTracks, json3 timedtext, and a playlist feed. */
export function youtube() {
  return serve(fakeYoutube().handle);
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
