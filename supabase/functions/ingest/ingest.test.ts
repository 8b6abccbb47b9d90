// End to end: the ingest function against the running stack, reading local
// fixtures on 127.0.0.1 (website, Storage uploads, Notion API, YouTube).
import assert from "node:assert/strict";
import { PDFDocument, StandardFonts } from "npm:pdf-lib@1.17.1";
import { Document, HeadingLevel, Packer, Paragraph } from "npm:docx@9.15.2";
import { callFunction, serviceClient, signedInUser, stack } from "../_shared/testing.ts";
import { chunkText } from "../_shared/knowledge/chunk.ts";
import { embeddingConfigForTeam, hasEmbeddingColumn } from "../_shared/knowledge/embeddings.ts";
import { createBot, signedInUser as userWithToken } from "../chat/test-helpers.ts";
import {
  createSource,
  documentsOf,
  notionApi,
  ownerWithBot,
  serve,
  slowWebsite,
  startSync,
  syncAndWait,
  waitForJob,
  website,
  youtube,
} from "./test-fixtures.ts";

Deno.test("web: crawl with sitemap, robots, redirects and broken links; re-sync is idempotent", async () => {
  const site = website();
  try {
    const owner = await ownerWithBot();
    const sourceId = await createSource(owner.client, owner.bot.id, "web", {
      url: `${site.url}/`,
      max_depth: 2,
      delay_ms: 0,
    });

    const job = await syncAndWait(owner.token, sourceId);
    assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
    const docs = await documentsOf(sourceId);
    assert.deepEqual(
      docs.map((d) => new URL(d.url).pathname),
      ["/", "/guide/billing", "/guide/install", "/orphan"],
    );
    const codes = (code: string) => job.errors.filter((e) => e.code === code).map((e) => new URL(e.url).pathname);
    assert.deepEqual(codes("http_404"), ["/broken"]);
    assert.deepEqual(codes("robots_disallowed"), ["/private/secret"]);
    assert.deepEqual(codes("redirected"), ["/old-install"]);
    assert.deepEqual(codes("blocked_address"), ["/to-metadata"], "a redirect to the metadata address is refused");
    assert.ok(!site.requested.includes("/private/secret"), "robots.txt is respected");
    assert.equal(job.progress_done, job.progress_total);

    const install = docs.find((d) => d.url.endsWith("/guide/install"))!;
    assert.equal(install.title, "Install");
    assert.match(install.content, /npm install -g acme-cli/);
    assert.doesNotMatch(install.content, /Acme Docs footer/, "page chrome is dropped");
    assert.deepEqual(install.chunks.map((c) => c.heading_path).sort(), ["Install", "Install > Requirements"]);

    const { data: source } = await owner.client.from("data_sources").select("*").eq("id", sourceId).single();
    assert.ok(source);
    const chunkCount = docs.reduce((n, d) => n + d.chunks.length, 0);
    assert.equal(source.status, "ready");
    assert.equal(source.document_count, 4);
    assert.equal(source.chunk_count, chunkCount);

    // retrieval finds the right page
    const { data: hits, error } = await owner.client.rpc("match_chunks", {
      p_bot_id: owner.bot.id,
      p_query: "How do I install the command line tool?",
    });
    assert.equal(error, null);
    assert.equal(new URL(hits[0].document_url).pathname, "/guide/install");
    assert.equal(hits[0].document_title, "Install");

    // sync again: nothing changes, no duplicates
    const again = await syncAndWait(owner.token, sourceId);
    assert.equal(again.status, "succeeded");
    const docs2 = await documentsOf(sourceId);
    assert.equal(
      docs2.reduce((n, d) => n + d.chunks.length, 0),
      chunkCount,
    );
    assert.deepEqual(
      docs2.map((d) => d.chunks.map((c) => c.id)),
      docs.map((d) => d.chunks.map((c) => c.id)),
      "unchanged pages are skipped",
    );

    // change one page, remove another
    site.pages.get("/guide/billing")!.body =
      "<h1>Billing</h1><h2>Invoices</h2><p>Invoices are now emailed every quarter.</p>";
    site.pages.delete("/orphan");
    const third = await syncAndWait(owner.token, sourceId);
    assert.equal(third.status, "succeeded");
    const docs3 = await documentsOf(sourceId);
    assert.deepEqual(
      docs3.map((d) => new URL(d.url).pathname),
      ["/", "/guide/billing", "/guide/install"],
    );
    const billing = docs3.find((d) => d.url.endsWith("/guide/billing"))!;
    assert.equal(billing.chunks.length, 1);
    assert.match(billing.chunks[0].content, /every quarter/);
    const { count } = await serviceClient()
      .from("chunks")
      .select("id", { count: "exact", head: true })
      .eq("bot_id", owner.bot.id);
    assert.equal(
      count,
      docs3.reduce((n, d) => n + d.chunks.length, 0),
      "no orphaned or duplicate chunks",
    );

    // a page that is briefly down keeps its knowledge
    site.unavailable.add("/guide/install");
    const fourth = await syncAndWait(owner.token, sourceId);
    assert.equal(fourth.status, "succeeded");
    assert.deepEqual(
      fourth.errors.filter((e) => e.code === "http_503").map((e) => new URL(e.url).pathname),
      ["/guide/install"],
    );
    assert.ok((await documentsOf(sourceId)).some((d) => d.url.endsWith("/guide/install")));
  } finally {
    await site.close();
  }
});

Deno.test(
  "web: a re-sync asks conditionally; pages answering 304 are kept and their links followed, not downloaded",
  async () => {
    // "/b" sends only Last-Modified (a static server without ETags); the others an ETag.
    const pages = new Map<string, { version: number; body: string }>([
      ["/", { version: 1, body: `<h1>Home</h1><p>Start here.</p><a href="/a">A</a> <a href="/b">B</a>` }],
      ["/a", { version: 1, body: `<h1>Alpha</h1><p>Alpha explains the first step.</p><a href="/a/deep">Deep</a>` }],
      ["/a/deep", { version: 1, body: `<h1>Deep</h1><p>Only the alpha page links here.</p>` }],
      ["/b", { version: 1, body: `<h1>Beta</h1><p>Beta explains the second step.</p>` }],
    ]);
    const full: string[] = [];
    const notModified: string[] = [];
    const site = serve((req) => {
      const { pathname } = new URL(req.url);
      const p = pages.get(pathname);
      if (!p) return new Response("", { status: 404 });
      const validator: Record<string, string> =
        pathname === "/b"
          ? { "last-modified": new Date(Date.UTC(2026, 0, p.version)).toUTCString() }
          : { etag: `"${pathname}-${p.version}"` };
      const fresh =
        "etag" in validator
          ? req.headers.get("if-none-match") === validator.etag
          : req.headers.get("if-modified-since") === validator["last-modified"];
      if (fresh) {
        notModified.push(pathname);
        return new Response(null, { status: 304, headers: validator });
      }
      full.push(pathname);
      return new Response(`<!doctype html><title>${pathname}</title><main>${p.body}</main>`, {
        headers: { "content-type": "text/html", ...validator },
      });
    });
    const paths = (list: string[]) => [...list].sort();
    try {
      const owner = await ownerWithBot();
      const sourceId = await createSource(owner.client, owner.bot.id, "web", { url: `${site.url}/`, delay_ms: 0 });
      const first = await syncAndWait(owner.token, sourceId);
      assert.equal(first.status, "succeeded", JSON.stringify(first.errors));
      assert.deepEqual(paths(full), ["/", "/a", "/a/deep", "/b"]);
      assert.deepEqual(notModified, []);
      const { data: stored } = await serviceClient()
        .from("documents")
        .select("url, etag, last_modified, links")
        .eq("data_source_id", sourceId)
        .order("url");
      const byPath = new Map(stored!.map((d) => [new URL(d.url).pathname, d]));
      assert.equal(byPath.get("/a")!.etag, '"/a-1"');
      assert.deepEqual(byPath.get("/a")!.links, [`${site.url}/a/deep`]);
      assert.equal(byPath.get("/b")!.etag, null);
      assert.equal(byPath.get("/b")!.last_modified, "Thu, 01 Jan 2026 00:00:00 GMT");
      const docs = await documentsOf(sourceId);

      // nothing changed: every page answers 304, nothing is downloaded, nothing is lost
      full.length = 0;
      const again = await syncAndWait(owner.token, sourceId);
      assert.equal(again.status, "succeeded", JSON.stringify(again.errors));
      assert.deepEqual(full, [], "no page is downloaded again");
      assert.deepEqual(
        paths(notModified),
        ["/", "/a", "/a/deep", "/b"],
        "/a/deep is reached through /a's stored links",
      );
      assert.deepEqual(await documentsOf(sourceId), docs);

      // one page changes: only it is downloaded, and its new text is indexed
      full.length = 0;
      notModified.length = 0;
      pages.set("/a/deep", { version: 2, body: `<h1>Deep</h1><p>The deep page now covers rollbacks.</p>` });
      const third = await syncAndWait(owner.token, sourceId);
      assert.equal(third.status, "succeeded", JSON.stringify(third.errors));
      assert.deepEqual(full, ["/a/deep"]);
      assert.deepEqual(paths(notModified), ["/", "/a", "/b"]);
      const deep = (await documentsOf(sourceId)).find((d) => d.url.endsWith("/a/deep"))!;
      assert.match(deep.chunks.map((c) => c.content).join(" "), /covers rollbacks/);
      assert.doesNotMatch(
        deep.chunks.map((c) => c.content).join(" "),
        /Only the alpha page/,
        "the old chunks are gone",
      );

      // a page whose validator moves but whose text does not (a redeploy): downloaded, its hash is the
      // same, so its chunks are not rewritten (same rows), and the new validator is remembered
      const beforeB = (await documentsOf(sourceId)).find((d) => d.url.endsWith("/b"))!;
      full.length = 0;
      notModified.length = 0;
      pages.set("/b", { version: 2, body: pages.get("/b")!.body });
      const fourth = await syncAndWait(owner.token, sourceId);
      assert.equal(fourth.status, "succeeded", JSON.stringify(fourth.errors));
      assert.deepEqual(full, ["/b"]);
      assert.deepEqual(paths(notModified), ["/", "/a", "/a/deep"]);
      const afterB = (await documentsOf(sourceId)).find((d) => d.url.endsWith("/b"))!;
      assert.deepEqual(afterB, beforeB, "same document, same chunk rows");
      const { data: b } = await serviceClient().from("documents").select("last_modified").eq("id", afterB.id).single();
      assert.equal(b!.last_modified, "Fri, 02 Jan 2026 00:00:00 GMT");
    } finally {
      await site.close();
    }
  },
);

Deno.test(
  "web: short pages are stored in one call, a page too long for one RPC body in parts; both replace their chunks",
  async () => {
    const sentence = (topic: string, i: number) => `Sentence ${i} about ${topic} adds one more detail for the reader.`;
    const section = (topic: string, n: number) =>
      `<h2>${topic}</h2><p>${Array.from({ length: n }, (_, i) => sentence(topic, i)).join(" ")}</p>`;
    const pages = new Map<string, string>([
      ["/", `<h1>Home</h1>${section("home", 5)}<a href="/long">Long</a>`],
      ["/long", `<h1>Long</h1>${Array.from({ length: 12 }, (_, i) => section(`part ${i}`, 150)).join("")}`],
    ]);
    const site = serve((req) => {
      const body = pages.get(new URL(req.url).pathname);
      if (body === undefined) return new Response("", { status: 404 });
      return new Response(`<!doctype html><title>${new URL(req.url).pathname}</title><main>${body}</main>`, {
        headers: { "content-type": "text/html", etag: `"${body.length}"` },
      });
    });
    try {
      const owner = await ownerWithBot();
      const sourceId = await createSource(owner.client, owner.bot.id, "web", { url: `${site.url}/`, delay_ms: 0 });
      const first = await syncAndWait(owner.token, sourceId);
      assert.equal(first.status, "succeeded", JSON.stringify(first.errors));
      const docs = await documentsOf(sourceId);
      const long = docs.find((d) => d.url.endsWith("/long"))!;
      assert.ok(long.content.length > 100_000, "the long page's text alone is over the 60 KB RPC body");
      for (const d of docs) {
        const expected = chunkText(d.content, { title: d.title });
        assert.equal(d.chunks.length, expected.length, `${d.url}: every chunk is stored`);
        assert.match(d.content_hash, /^[0-9a-f]{64}$/, `${d.url}: the hash is recorded with the chunks`);
      }
      assert.match(long.chunks.map((c) => c.content).join(" "), /Sentence 149 about part 11/);
      const { data: validators } = await serviceClient()
        .from("documents")
        .select("url, etag")
        .eq("data_source_id", sourceId);
      assert.ok(
        validators!.every((d) => d.etag),
        "validators are stored on both paths",
      );

      // both change: the old chunks are replaced, not added to
      pages.set("/", `<h1>Home</h1>${section("welcome", 5)}<a href="/long">Long</a>`);
      pages.set("/long", `<h1>Long</h1>${Array.from({ length: 12 }, (_, i) => section(`chapter ${i}`, 150)).join("")}`);
      const second = await syncAndWait(owner.token, sourceId);
      assert.equal(second.status, "succeeded", JSON.stringify(second.errors));
      const after = await documentsOf(sourceId);
      assert.deepEqual(
        after.map((d) => d.id),
        docs.map((d) => d.id),
        "same documents",
      );
      for (const d of after) {
        const text = d.chunks.map((c) => c.content).join(" ");
        assert.doesNotMatch(text, /about home|about part/, `${d.url}: the old chunks are gone`);
        assert.equal(d.chunks.length, chunkText(d.content, { title: d.title }).length);
      }
    } finally {
      await site.close();
    }
  },
);

Deno.test("web: a stranger cannot sync, a job can be cancelled and retried, routes refuse bad input", async () => {
  const site = slowWebsite();
  try {
    const owner = await ownerWithBot();
    const sourceId = await createSource(owner.client, owner.bot.id, "web", {
      url: `${site.url}/p/0`,
      max_pages: 200,
      max_depth: 20,
      delay_ms: 100,
    });

    const stranger = await signedInUser();
    const refused = await startSync(stranger.token, sourceId);
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error.code, "not_found");
    const anon = await startSync(stack.anonKey, sourceId);
    assert.equal(anon.status, 404);

    const started = await startSync(owner.token, sourceId);
    assert.equal(started.status, 202);
    const busy = await startSync(owner.token, sourceId);
    assert.equal(busy.status, 409);
    assert.equal(busy.body.error.details.job_id, started.body.job_id);

    const strangerCancel = await callFunction("ingest", {
      method: "POST",
      path: `/jobs/${started.body.job_id}/cancel`,
      token: stranger.token,
    });
    assert.equal(strangerCancel.status, 404);
    await strangerCancel.body?.cancel();
    // wait until a few pages are in, then cancel
    const service = serviceClient();
    for (let i = 0; i < 200; i++) {
      const { data } = await service
        .from("ingestion_jobs")
        .select("progress_done")
        .eq("id", started.body.job_id)
        .single();
      if (data!.progress_done >= 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancel = await callFunction("ingest", {
      method: "POST",
      path: `/jobs/${started.body.job_id}/cancel`,
      token: owner.token,
    });
    assert.equal(cancel.status, 200);
    const cancelBody = await cancel.json();
    assert.equal(
      cancelBody.cancel_requested,
      true,
      JSON.stringify((await service.from("ingestion_jobs").select("*").eq("id", started.body.job_id).single()).data),
    );
    const job = await waitForJob(started.body.job_id);
    assert.equal(job.status, "cancelled");
    const docs = await documentsOf(sourceId);
    assert.ok(docs.length >= 1 && docs.length < 200, `cancelled mid-way (${docs.length} documents)`);
    const { data: source } = await owner.client.from("data_sources").select("status").eq("id", sourceId).single();
    assert.equal(source!.status, "cancelled");

    // retry: a new job; cancel it right away so the test stays short
    const retry = await callFunction("ingest", {
      method: "POST",
      path: `/jobs/${started.body.job_id}/retry`,
      token: owner.token,
    });
    assert.equal(retry.status, 202);
    const retryJob = (await retry.json()).job_id;
    assert.notEqual(retryJob, started.body.job_id);
    const c2 = await callFunction("ingest", { method: "POST", path: `/jobs/${retryJob}/cancel`, token: owner.token });
    await c2.body?.cancel();
    assert.equal((await waitForJob(retryJob)).status, "cancelled");

    // bad input
    const bad = await callFunction("ingest", {
      method: "POST",
      path: `/sources/${sourceId}/sync`,
      token: owner.token,
      body: "{nope",
    });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.code, "invalid_json");
    const wrong = await callFunction("ingest", {
      method: "POST",
      path: `/sources/${sourceId}/sync`,
      token: owner.token,
      body: '{"trigger":"schedule"}',
    });
    assert.equal(wrong.status, 400);
    await wrong.body?.cancel();
    const notUuid = await callFunction("ingest", { method: "POST", path: "/sources/x'--/sync", token: owner.token });
    assert.equal(notUuid.status, 404);
    await notUuid.body?.cancel();
    const tick = await callFunction("ingest", { method: "POST", path: "/tick", token: owner.token });
    assert.equal(tick.status, 403);
    await tick.body?.cancel();
  } finally {
    await site.close();
  }
});

Deno.test("web: SSRF attempts are refused", async () => {
  const owner = await ownerWithBot();
  const metadata = await createSource(owner.client, owner.bot.id, "web", {
    url: "http://169.254.169.254/latest/meta-data/",
    mode: "single",
  });
  const job = await syncAndWait(owner.token, metadata);
  assert.equal(job.status, "failed");
  assert.ok(
    job.errors.some((e) => e.code === "blocked_address"),
    JSON.stringify(job.errors),
  );
  const mapped = await createSource(owner.client, owner.bot.id, "web", {
    url: "http://[fd00:ec2::254]/",
    mode: "single",
  });
  const job2 = await syncAndWait(owner.token, mapped);
  assert.ok(
    job2.errors.some((e) => e.code === "blocked_address"),
    JSON.stringify(job2.errors),
  );
  const scheme = await createSource(owner.client, owner.bot.id, "web", { url: "file:///etc/passwd" });
  const job3 = await syncAndWait(owner.token, scheme);
  assert.equal(job3.status, "failed");
  assert.equal(job3.errors[0].code, "invalid_settings");
});

Deno.test("files: PDF, DOCX, CSV and Markdown uploaded to Storage", async () => {
  const owner = await ownerWithBot();
  const bucket = owner.client.storage.from("data-sources");

  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of ["The warranty covers hardware faults for two years.", "Batteries are covered for one year."]) {
    pdf.addPage([600, 400]).drawText(text, { x: 40, y: 340, size: 14, font });
  }
  const pdfBytes = await pdf.save();
  const docx = await Packer.toBuffer(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: "Travel policy", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Book flights through the travel portal at least two weeks ahead." }),
            new Paragraph({ text: "Hotels", heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ text: "Hotel rooms may cost up to 150 euros per night." }),
          ],
        },
      ],
    }),
  );
  const csv =
    "question,answer,owner\nHow do I reset my password?,Use the Forgot password link on the sign-in page.,ops\nCan I change my plan?,Yes; open Billing and pick a new plan.,sales\n";
  const md = "---\ntitle: Shortcuts\n---\n# Keyboard shortcuts\n\nPress Ctrl+K to open the command palette.\n";
  const files = [
    { name: "warranty.pdf", body: new Blob([new Uint8Array(pdfBytes)], { type: "application/pdf" }) },
    {
      name: "travel.docx",
      body: new Blob([new Uint8Array(docx)], {
        type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      }),
    },
    { name: "faq.csv", body: new Blob([csv], { type: "text/csv" }) },
    { name: "shortcuts.md", body: new Blob([md], { type: "text/markdown" }) },
  ];
  for (const f of files) {
    const { error } = await bucket.upload(`${owner.bot.id}/${f.name}`, f.body, {
      contentType: f.body.type,
      upsert: true,
    });
    assert.equal(error, null, `upload ${f.name}: ${error?.message}`);
  }
  // a stranger may not upload under this bot
  const stranger = await signedInUser();
  const denied = await stranger.client.storage
    .from("data-sources")
    .upload(`${owner.bot.id}/evil.txt`, new Blob(["x"]), { contentType: "text/plain" });
  assert.notEqual(denied.error, null);

  const sourceId = await createSource(owner.client, owner.bot.id, "file", {
    files: [
      ...files.map((f) => ({ path: `${owner.bot.id}/${f.name}`, name: f.name })),
      { path: `${owner.bot.id}/missing.txt`, name: "missing.txt" },
      { path: "00000000-0000-0000-0000-000000000000/other.txt", name: "other.txt" },
    ],
    text_columns: ["question", "answer"],
    title_column: "question",
  });
  const job = await syncAndWait(owner.token, sourceId);
  assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
  assert.deepEqual(job.errors.map((e) => e.code).sort(), ["file_not_found", "forbidden_path"]);
  const docs = await documentsOf(sourceId);
  const byName = (suffix: string) => docs.find((d) => d.url.endsWith(suffix))!;
  assert.equal(docs.length, 5);
  assert.match(byName("warranty.pdf").content, /two years[\s\S]*Batteries are covered/);
  assert.equal(byName("warranty.pdf").metadata.pages, 2);
  assert.match(byName("travel.docx").content, /^# Travel policy\n\nBook flights/);
  assert.ok(
    byName("travel.docx").chunks.some((c) => c.heading_path === "travel > Travel policy > Hotels"),
    JSON.stringify(byName("travel.docx").chunks),
  );
  assert.equal(byName("faq.csv#row=1").title, "How do I reset my password?");
  assert.doesNotMatch(byName("faq.csv#row=1").content, /ops/, "only the chosen columns are imported");
  assert.equal(byName("shortcuts.md").title, "Shortcuts");

  const { data: hits } = await owner.client.rpc("match_chunks", {
    p_bot_id: owner.bot.id,
    p_query: "hotel price per night",
  });
  assert.ok(hits[0].document_url.endsWith("travel.docx"));
  const again = await syncAndWait(owner.token, sourceId);
  assert.equal(again.status, "succeeded");
  assert.equal(
    (await documentsOf(sourceId)).reduce((n, d) => n + d.chunks.length, 0),
    docs.reduce((n, d) => n + d.chunks.length, 0),
  );

  // re-ingest one document: only its chunks are rebuilt
  const shortcuts = byName("shortcuts.md");
  const res = await callFunction("ingest", {
    method: "POST",
    path: `/documents/${shortcuts.id}/reingest`,
    token: owner.token,
  });
  assert.equal(res.status, 202);
  assert.equal((await waitForJob((await res.json()).job_id)).status, "succeeded");
  const after = await documentsOf(sourceId);
  for (const d of after) {
    const before = docs.find((x) => x.url === d.url)!;
    const same =
      JSON.stringify(d.chunks.map((c) => c.id).sort()) === JSON.stringify(before.chunks.map((c) => c.id).sort());
    assert.equal(same, d.url !== shortcuts.url, `${d.url} ${same ? "kept" : "rebuilt"} its chunks`);
  }
});

Deno.test("notion: pages and databases through the REST API; token stored by the owner only", async () => {
  const token = "secret_notion_token";
  const api = notionApi(token);
  try {
    const owner = await ownerWithBot();
    const sourceId = await createSource(owner.client, owner.bot.id, "notion", {
      pages: [`https://www.notion.so/acme/Onboarding-${api.pageId.replace(/-/g, "")}`],
      databases: [api.dbId],
      api_url: api.url,
    });
    // no token yet
    const first = await syncAndWait(owner.token, sourceId);
    assert.equal(first.status, "failed");
    assert.equal(first.errors[0].code, "notion_not_connected");

    const stranger = await signedInUser();
    const denied = await callFunction("ingest", {
      method: "POST",
      path: "/notion/token",
      token: stranger.token,
      body: JSON.stringify({ data_source_id: sourceId, access_token: "stolen" }),
    });
    assert.equal(denied.status, 404);
    await denied.body?.cancel();
    const stored = await callFunction("ingest", {
      method: "POST",
      path: "/notion/token",
      token: owner.token,
      body: JSON.stringify({ data_source_id: sourceId, access_token: token }),
    });
    assert.equal(stored.status, 200);
    await stored.body?.cancel();
    const { error: readSecret } = await owner.client.from("data_source_secrets").select("*");
    assert.notEqual(readSecret, null, "the token is not readable by clients");

    const job = await syncAndWait(owner.token, sourceId);
    assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
    const docs = await documentsOf(sourceId);
    assert.deepEqual(docs.map((d) => d.title).sort(), ["Expense policy", "Holiday policy", "Onboarding handbook"]);
    const handbook = docs.find((d) => d.title === "Onboarding handbook")!;
    assert.match(handbook.content, /# First week[\s\S]*laptop[\s\S]*two-factor[\s\S]*## Tools[\s\S]*- Slack for chat/);
    assert.ok(handbook.chunks.some((c) => c.heading_path === "Onboarding handbook > First week > Tools"));
    assert.equal(handbook.url, `https://www.notion.so/${api.pageId.replace(/-/g, "")}`);
  } finally {
    await api.close();
  }
});

Deno.test("youtube: a playlist's transcripts in the bot's language with timestamps", async () => {
  const yt = youtube();
  try {
    const owner = await ownerWithBot("de");
    const sourceId = await createSource(owner.client, owner.bot.id, "youtube", {
      url: "https://www.youtube.com/playlist?list=PLacme",
      base_url: yt.url,
    });
    const job = await syncAndWait(owner.token, sourceId);
    assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
    assert.deepEqual(
      job.errors.map((e) => [e.url, e.code]),
      [["https://www.youtube.com/watch?v=vid00000003", "no_transcript"]],
    );
    const docs = await documentsOf(sourceId);
    assert.equal(docs.length, 2);
    const intro = docs.find((d) => d.url.endsWith("vid00000001"))!;
    assert.equal(intro.title, "Getting started with Acme");
    assert.equal(intro.content, "[0:00] Willkommen bei Acme. Erstellen Sie zuerst einen Arbeitsbereich.");
    assert.equal(intro.metadata.caption_language, "de");
    const exporting = docs.find((d) => d.url.endsWith("vid00000002"))!;
    assert.match(exporting.content, /^\[0:00\] To export notes/, "falls back to English");
    assert.deepEqual((exporting.metadata.segments as unknown[]).length, 1);
  } finally {
    await yt.close();
  }
});

Deno.test("schedules: /tick starts due sources and only answers the service role", async () => {
  const owner = await ownerWithBot();
  const sourceId = await createSource(owner.client, owner.bot.id, "text", {
    text: "The office opens at nine.",
    title: "Hours",
  });
  await owner.client.from("data_sources").update({ sync_schedule: "daily" }).eq("id", sourceId);
  const service = serviceClient();
  await service
    .from("data_sources")
    .update({ next_sync_at: new Date(Date.now() - 1000).toISOString() })
    .eq("id", sourceId);
  const res = await callFunction("ingest", { method: "POST", path: "/tick", token: stack.serviceRoleKey, body: "{}" });
  assert.equal(res.status, 200);
  const { started } = await res.json();
  const mine = started.find((s: { data_source_id: string }) => s.data_source_id === sourceId);
  assert.ok(mine, "the due source was started");
  assert.equal((await waitForJob(mine.job_id)).status, "succeeded");
  const { data: source } = await service
    .from("data_sources")
    .select("next_sync_at, document_count, status")
    .eq("id", sourceId)
    .single();
  assert.ok(Date.parse(source!.next_sync_at) > Date.now() + 23 * 3600_000);
  assert.equal(source!.document_count, 1);
  const { data: job } = await service.from("ingestion_jobs").select("trigger").eq("id", mine.job_id).single();
  assert.equal(job!.trigger, "schedule");
});

Deno.test(
  "embeddings: used only where chunks.embedding exists (pgvector); without it ingestion and retrieval go on",
  async () => {
    const calls: string[] = [];
    const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
      const body = await req.json();
      calls.push(new URL(req.url).pathname);
      return Response.json({
        object: "list",
        data: body.input.map((_: string, index: number) => ({
          object: "embedding",
          index,
          embedding: Array(1536).fill(0.01),
        })),
      });
    });
    try {
      const owner = await ownerWithBot();
      const service = serviceClient();
      const { error: keyError } = await service.from("team_provider_keys").insert({
        team_id: owner.bot.team_id,
        provider: "openai_compatible",
        base_url: `http://127.0.0.1:${server.addr.port}/v1`,
      });
      assert.equal(keyError, null);
      const hasColumn = await hasEmbeddingColumn(service);
      const config = await embeddingConfigForTeam(service, owner.bot.team_id);
      assert.equal(config?.url ?? null, hasColumn ? `http://127.0.0.1:${server.addr.port}/v1/embeddings` : null);

      const sourceId = await createSource(owner.client, owner.bot.id, "text", {
        title: "Lamp care",
        text: "Dust the brass arm with a dry cloth once a week.",
      });
      const job = await syncAndWait(owner.token, sourceId);
      assert.equal(job.status, "succeeded", JSON.stringify(job.errors));
      // The embedded PostgreSQL has no pgvector: the provider is never called. Where the
      // column exists (hosted Supabase) every chunk is embedded through it.
      assert.deepEqual(calls.length > 0, hasColumn);
      if (hasColumn) assert.ok(calls.every((p) => p === "/v1/embeddings"));

      const { data: hits, error } = await owner.client.rpc("match_chunks", {
        p_bot_id: owner.bot.id,
        p_query: "how do I clean the brass arm",
      });
      assert.equal(error, null);
      assert.equal(hits[0].document_title, "Lamp care");
    } finally {
      await server.shutdown();
    }
  },
);

Deno.test("every ingest write refuses a platform administrator and a member of another team (issue 13)", async () => {
  const owner = await ownerWithBot();
  const service = serviceClient();
  const sourceId = await createSource(owner.client, owner.bot.id, "notion", { pages: [] }, "Notion");
  const tokenSet = await callFunction("ingest", {
    method: "POST",
    path: "/notion/token",
    token: owner.token,
    body: JSON.stringify({ data_source_id: sourceId, access_token: "secret_owner_token" }),
  });
  assert.equal(tokenSet.status, 200);
  await tokenSet.body?.cancel();
  const { data: job, error: jobError } = await service
    .from("ingestion_jobs")
    .insert({ data_source_id: sourceId, bot_id: owner.bot.id, trigger: "manual", status: "failed" })
    .select("id")
    .single();
  if (jobError) throw jobError;
  const { data: doc, error: docError } = await service
    .from("documents")
    .insert({
      data_source_id: sourceId,
      bot_id: owner.bot.id,
      title: "Page",
      url: "notion:page",
      content: "x",
      content_hash: "h",
    })
    .select("id")
    .single();
  if (docError) throw docError;

  // The platform administrator reads every team's data (RLS lets them see these rows)...
  // Users with minted tokens: the suite shares auth's sign-in limit (30 per 5 minutes per address).
  const platform = await userWithToken({ aal: "aal2" });
  const { error: adminError } = await service.from("platform_admins").insert({ user_id: platform.user.id });
  if (adminError) throw adminError;
  const seen = await platform.client.from("data_sources").select("id").eq("id", sourceId);
  assert.equal(seen.data?.length, 1, "the platform administrator can read the source");
  // ...and a member of another team owns a bot of their own.
  const otherTeam = (await createBot()).owner;

  const writes = [
    { path: "/notion/token", body: { data_source_id: sourceId, access_token: "secret_attacker_token" } },
    { path: `/sources/${sourceId}/sync`, body: {} },
    { path: `/jobs/${job.id}/retry`, body: undefined },
    { path: `/jobs/${job.id}/cancel`, body: undefined },
    { path: `/documents/${doc.id}/reingest`, body: undefined },
  ];
  for (const caller of [platform, otherTeam]) {
    for (const w of writes) {
      const res = await callFunction("ingest", {
        method: "POST",
        path: w.path,
        token: caller.token,
        body: w.body === undefined ? undefined : JSON.stringify(w.body),
      });
      assert.equal(res.status, 404, `${w.path} as ${caller === platform ? "platform admin" : "another team"}`);
      assert.equal((await res.json()).error.code, "not_found");
    }
  }

  const { data: secret } = await service
    .from("data_source_secrets")
    .select("notion_access_token")
    .eq("data_source_id", sourceId)
    .single();
  assert.equal(secret!.notion_access_token, "secret_owner_token", "the owner's Notion token is untouched");
  const { count: jobs } = await service
    .from("ingestion_jobs")
    .select("id", { count: "exact", head: true })
    .eq("data_source_id", sourceId);
  assert.equal(jobs, 1, "no sync was started");
  const { data: kept } = await service.from("documents").select("content_hash").eq("id", doc.id).single();
  assert.equal(kept!.content_hash, "h", "no document was marked for re-reading");
});
