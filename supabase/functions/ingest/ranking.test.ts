// Retrieval's second stage and what the web reader records for it (issue 17), against the
// running stack: match_chunks reranks the first stage's candidates (query-term coverage of the
// chunk and its title), navigation-only pages are recognised at ingest and ranked down, and a
// re-sync does not request pages whose sitemap lastmod is not newer than their last download, and
// match_chunks' per-bot lexeme statistics (IDF) follow what the ingest function writes.
import assert from "node:assert/strict";
import { sql } from "../_shared/testing.ts";
import { createSource, documentsOf, ownerWithBot, serve, syncAndWait } from "./test-fixtures.ts";

const html = (title: string, body: string) =>
  new Response(
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`,
    {
      headers: { "content-type": "text/html; charset=utf-8" },
    },
  );

/** The first stage's order (reciprocal-rank fusion, before the rerank), by document title. */
async function firstStage(botId: string, query: string): Promise<string[]> {
  const rows = await sql<{ title: string }>(
    `select d.title from private.match_chunk_candidates($1, $2) k join public.documents d on d.id = k.document_id
     order by k.fused_rank`,
    [botId, query],
  );
  return rows.map((r) => r.title);
}

Deno.test("rerank: the page whose title and text cover the question moves to first place", async () => {
  const owner = await ownerWithBot();
  // A dense log repeats the words (full text and trigram similarity rank it first); the page
  // titled with the question explains it once, in prose.
  const log = await createSource(owner.client, owner.bot.id, "text", {
    title: "Workshop log",
    text: "Monday: rotate the brass arm. Tuesday: rotate the brass arm again. Rotate brass arm, brass arm rotate.",
  });
  const guide = await createSource(owner.client, owner.bot.id, "text", {
    title: "Rotate the brass arm",
    text:
      "Loosen the knob under the lamp head first. Turn the arm slowly; the brass joint is soft and scratches " +
      "easily, so hold it near the base while you rotate it to the new angle and tighten the knob again.",
  });
  for (const id of [log, guide]) assert.equal((await syncAndWait(owner.token, id)).status, "succeeded");

  const question = "how do I rotate the brass arm";
  assert.deepEqual(await firstStage(owner.bot.id, question), ["Workshop log", "Rotate the brass arm"]);
  const { data: hits, error } = await owner.client.rpc("match_chunks", { p_bot_id: owner.bot.id, p_query: question });
  assert.equal(error, null);
  assert.deepEqual(
    hits.map((h: { document_title: string }) => h.document_title),
    ["Rotate the brass arm", "Workshop log"],
  );
  assert.ok(hits[0].score > hits[1].score);
});

Deno.test("navigation-only pages are recognised at ingest and ranked below pages with content", async () => {
  const topics = ["Rotate the brass arm", "Clean the brass arm", "Replace the bulb", "Fix the switch", "Oil the hinge"];
  const site = serve((req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/") {
      const items = topics.map((t, i) => `<li><a href="/t${i}">${t}</a></li>`).join("");
      return html("Lamp manual contents", `<h1>Contents</h1><ul>${items}</ul>`);
    }
    const i = Number(pathname.slice(2));
    if (pathname.startsWith("/t") && topics[i]) {
      return html(
        topics[i],
        `<h1>${topics[i]}</h1><p>Loosen the knob under the lamp head first, then work slowly: the brass joint is soft and ` +
          `scratches easily. Hold the part near its base and tighten the knob again when you are done. ` +
          `See <a href="/">the contents</a>.</p>`,
      );
    }
    return new Response("not found", { status: 404 });
  });
  try {
    const owner = await ownerWithBot();
    const sourceId = await createSource(owner.client, owner.bot.id, "web", {
      url: `${site.url}/`,
      max_depth: 1,
      delay_ms: 0,
      use_sitemap: false,
    });
    assert.equal((await syncAndWait(owner.token, sourceId)).status, "succeeded");
    const flags = await sql<{ url: string; navigation: boolean }>(
      "select url, navigation from public.documents where data_source_id = $1 order by url",
      [sourceId],
    );
    assert.deepEqual(
      flags.map((f) => [new URL(f.url).pathname, f.navigation]),
      [
        ["/", true],
        ["/t0", false],
        ["/t1", false],
        ["/t2", false],
        ["/t3", false],
        ["/t4", false],
      ],
    );

    const question = "rotate brass arm";
    const { data: hits, error } = await owner.client.rpc("match_chunks", { p_bot_id: owner.bot.id, p_query: question });
    assert.equal(error, null);
    const titles = hits.map((h: { document_title: string }) => h.document_title);
    assert.equal(titles[0], "Rotate the brass arm");
    assert.ok(titles.indexOf("Lamp manual contents") > titles.indexOf("Clean the brass arm"), titles.join(" / "));
    assert.ok(
      (await firstStage(owner.bot.id, question)).includes("Lamp manual contents"),
      "the contents page was a candidate",
    );
  } finally {
    await site.close();
  }
});

Deno.test("web: a re-sync does not request pages whose sitemap lastmod is not newer than their download", async () => {
  const lastmod = new Map([
    ["/a", "2020-01-01"],
    ["/b", "2020-01-01T10:00:00+00:00"],
    ["/c", "2020-01-01"],
  ]);
  const requested: string[] = [];
  // No ETag or Last-Modified: the sitemap alone says what changed.
  const site = serve((req, base) => {
    const { pathname } = new URL(req.url);
    requested.push(pathname);
    if (pathname === "/sitemap.xml") {
      const urls = [...lastmod].map(([p, m]) => `<url><loc>${base}${p}</loc><lastmod>${m}</lastmod></url>`).join("");
      return new Response(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        {
          headers: { "content-type": "application/xml" },
        },
      );
    }
    if (lastmod.has(pathname)) {
      return html(
        `Page ${pathname}`,
        `<h1>Page ${pathname}</h1><p>The text of page ${pathname}, version ${lastmod.get(pathname)}.</p>`,
      );
    }
    return new Response("not found", { status: 404 });
  });
  try {
    const owner = await ownerWithBot();
    const sourceId = await createSource(owner.client, owner.bot.id, "web", {
      url: `${site.url}/a`,
      max_depth: 1,
      delay_ms: 0,
    });
    assert.equal((await syncAndWait(owner.token, sourceId)).status, "succeeded");
    const pages = () => requested.filter((p) => lastmod.has(p)).sort();
    assert.deepEqual(pages(), ["/a", "/b", "/c"]);

    requested.length = 0;
    lastmod.set("/c", new Date(Date.now() + 60_000).toISOString()); // /c changed after its download
    const job = await syncAndWait(owner.token, sourceId);
    assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
    assert.deepEqual(pages(), ["/c"], "only the page whose lastmod is newer than its download is requested");
    const docs = await documentsOf(sourceId);
    assert.equal(docs.length, 3, "the pages not requested are kept");
    assert.match(docs.find((d) => d.url.endsWith("/c"))!.content, /version \d{4}-\d\d-\d\dT/);
  } finally {
    await site.close();
  }
});

Deno.test(
  "IDF statistics follow the ingest function's writes: a sync counts the chunks, a re-sync of changed text moves the counts",
  async () => {
    const owner = await ownerWithBot();
    const stats = async () => {
      const [row] = await sql<{ chunks: number; actual: number; kettle: number | null; lamp: number | null }>(
        `select s.chunks, (select count(*)::int from public.chunks c where c.bot_id = $1) as actual,
         (select b.chunks from private.bot_lexemes b where b.bot_id = $1 and b.lexeme = 'kettl') as kettle,
         (select b.chunks from private.bot_lexemes b where b.bot_id = $1 and b.lexeme = 'lamp') as lamp
       from private.bot_chunk_stats s where s.bot_id = $1`,
        [owner.bot.id],
      );
      return row;
    };
    const sourceId = await createSource(owner.client, owner.bot.id, "text", {
      title: "Kettle",
      text: "The copper kettle whistles when the water boils. Fill the kettle to the line and no higher.",
    });
    assert.equal((await syncAndWait(owner.token, sourceId)).status, "succeeded");
    const first = await stats();
    assert.ok(first.chunks > 0);
    assert.equal(first.chunks, first.actual);
    assert.equal(first.kettle, first.actual, "every chunk of the page holds 'kettle'");
    assert.equal(first.lamp, null);

    const { error } = await owner.client
      .from("data_sources")
      .update({ settings: { title: "Lamp", text: "The brass lamp glows when the switch is on." } })
      .eq("id", sourceId);
    assert.equal(error, null);
    assert.equal((await syncAndWait(owner.token, sourceId)).status, "succeeded");
    const second = await stats();
    assert.equal(second.chunks, second.actual);
    assert.equal(second.kettle, null, "the old text's lexemes are gone with its chunks");
    assert.equal(second.lamp, second.actual);
  },
);
