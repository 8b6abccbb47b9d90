// notion-connect against the running stack and a fake Notion (OAuth + API) on 127.0.0.1:
// the routes run in this process with the fake's addresses as configuration (the stack's
// own copy of the function has no Notion credentials and must say so), then the real
// ingest function claims the connection for a data source and imports the picked pages.
import assert from "node:assert/strict";
import { callFunction, serviceClient, signedInUser } from "../_shared/testing.ts";
import { handler } from "../_shared/http.ts";
import { documentsOf, notionApi, ownerWithBot, createSource, syncAndWait } from "../ingest/test-fixtures.ts";
import { type ConnectConfig, route } from "./connect.ts";

const TOKEN = "secret_oauth_token";
const REDIRECT = "http://127.0.0.1:5173/app/auth/providers/notion/callback";

function call(config: ConnectConfig | null, path: string, token: string, body: unknown) {
  return handler("notion-connect", (req) => route(req, config))(
    new Request(`http://functions.test/notion-connect/${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

async function consent(url: string, choice: "Allow access" | "Cancel") {
  const html = await (await fetch(url)).text();
  const href = new RegExp(`<a href="([^"]+)">${choice}</a>`).exec(html)?.[1]?.replace(/&#38;/g, "&");
  assert.ok(href, `no "${choice}" link on the consent page`);
  return new URL(href);
}

Deno.test("notion-connect: OAuth code exchange, workspace search, hand-over to a data source", async () => {
  const api = notionApi(TOKEN);
  const config: ConnectConfig = {
    clientId: api.fake.clientId,
    clientSecret: api.fake.clientSecret,
    oauthUrl: api.url,
    apiUrl: api.url,
  };
  try {
    const owner = await ownerWithBot();
    const stranger = await signedInUser();
    const returnPath = `/de/app/bots/${owner.bot.id}/data-sources/new?type=notion`;

    // bad input is refused with a clear code
    const badRedirect = await call(config, "start", owner.token, { redirect_uri: "https://evil.test/steal", return_path: "/" });
    assert.deepEqual(badRedirect.status, 400);
    assert.deepEqual((await badRedirect.json()).error.code, "invalid_redirect_uri");
    const badReturn = await call(config, "start", owner.token, { redirect_uri: REDIRECT, return_path: "//evil.test/" });
    assert.deepEqual((await badReturn.json()).error.code, "invalid_return_path");

    const started = await call(config, "start", owner.token, { redirect_uri: REDIRECT, return_path: returnPath });
    assert.deepEqual(started.status, 200);
    const authorize = new URL((await started.json()).url);
    assert.deepEqual(`${authorize.origin}${authorize.pathname}`, `${api.url}/v1/oauth/authorize`);
    assert.deepEqual(authorize.searchParams.get("client_id"), config.clientId);
    assert.deepEqual(authorize.searchParams.get("redirect_uri"), REDIRECT);
    assert.deepEqual(authorize.searchParams.get("owner"), "user");

    const back = await consent(authorize.toString(), "Allow access");
    assert.deepEqual(`${back.origin}${back.pathname}`, REDIRECT);
    const state = back.searchParams.get("state")!;
    const code = back.searchParams.get("code")!;

    // someone else cannot finish the owner's connection, nor can a forged state
    const hijack = await call(config, "exchange", stranger.token, { state, code });
    assert.deepEqual(hijack.status, 400);
    assert.deepEqual((await hijack.json()).error.code, "invalid_state");
    const forged = await call(config, "exchange", owner.token, { state: state.replace(/\..*/, ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), code });
    assert.deepEqual((await forged.json()).error.code, "invalid_state");

    const exchanged = await call(config, "exchange", owner.token, { state, code });
    assert.deepEqual(exchanged.status, 200);
    const conn = await exchanged.json();
    assert.deepEqual(conn.workspace_name, "Acme workspace");
    assert.deepEqual(conn.return_path, returnPath);
    assert.ok(!JSON.stringify(conn).includes(TOKEN), "the token never goes to the browser");
    // the same callback again (a reload) answers the same connection
    const again = await call(config, "exchange", owner.token, { state, code });
    assert.deepEqual((await again.json()).connection_id, conn.connection_id);

    const { data: row } = await serviceClient().from("notion_connections").select("*").eq("id", conn.connection_id).single();
    assert.deepEqual(row.access_token, TOKEN);
    assert.deepEqual(row.user_id, owner.user.id);
    const { error: clientRead } = await owner.client.from("notion_connections").select("*");
    assert.ok(clientRead, "clients cannot read connections");

    // the picker: pages and databases, not the rows of a database
    const listed = await call(config, "search", owner.token, { connection_id: conn.connection_id });
    assert.deepEqual(listed.status, 200);
    const all = await listed.json();
    assert.deepEqual(
      all.results.map((r: { type: string; title: string }) => `${r.type}:${r.title}`),
      ["database:Policies", "page:Onboarding handbook", "page:Meeting notes"],
    );
    assert.deepEqual(all.results[1].icon, "📘");
    assert.deepEqual(all.results[1].id, api.pageId);
    const found = await (await call(config, "search", owner.token, { connection_id: conn.connection_id, query: "hand" })).json();
    assert.deepEqual(found.results.map((r: { title: string }) => r.title), ["Onboarding handbook"]);
    const foreign = await call(config, "search", stranger.token, { connection_id: conn.connection_id });
    assert.deepEqual(foreign.status, 404);
    assert.deepEqual((await foreign.json()).error.code, "connection_not_found");

    // the data source takes the token over (through the real ingest function)
    const sourceId = await createSource(owner.client, owner.bot.id, "notion", {
      pages: [api.pageId],
      databases: [api.dbId],
      api_url: api.url,
    });
    const claim = (token: string) =>
      callFunction("ingest", {
        method: "POST",
        path: "/notion/token",
        token,
        body: JSON.stringify({ data_source_id: sourceId, connection_id: conn.connection_id }),
      });
    const strangerClaim = await claim(stranger.token);
    assert.deepEqual(strangerClaim.status, 404);
    await strangerClaim.body?.cancel();
    const claimed = await claim(owner.token);
    assert.deepEqual(claimed.status, 200, await claimed.clone().text());
    await claimed.body?.cancel();
    const { data: gone } = await serviceClient().from("notion_connections").select("id").eq("id", conn.connection_id);
    assert.deepEqual(gone, [], "the connection is forgotten once a source holds the token");
    const twice = await claim(owner.token);
    assert.deepEqual((await twice.json()).error.code, "connection_not_found");

    const job = await syncAndWait(owner.token, sourceId);
    assert.deepEqual(job.status, "succeeded", JSON.stringify(job.errors));
    assert.deepEqual((await documentsOf(sourceId)).map((d) => d.title).sort(), ["Expense policy", "Holiday policy", "Onboarding handbook"]);
  } finally {
    await api.close();
  }
});

Deno.test("notion-connect: denied consent, a wrong client secret, no configuration", async () => {
  const api = notionApi(TOKEN);
  const config: ConnectConfig = { clientId: api.fake.clientId, clientSecret: api.fake.clientSecret, oauthUrl: api.url, apiUrl: api.url };
  try {
    const owner = await signedInUser();
    const begin = async (c: ConnectConfig) => {
      const res = await call(c, "start", owner.token, { redirect_uri: REDIRECT, return_path: "/app/bots" });
      return new URL((await res.json()).url);
    };

    const denied = await consent((await begin(config)).toString(), "Cancel");
    assert.deepEqual(denied.searchParams.get("error"), "access_denied");
    const res = await call(config, "exchange", owner.token, { state: denied.searchParams.get("state"), error: "access_denied" });
    assert.deepEqual(res.status, 400);
    const body = await res.json();
    assert.deepEqual(body.error.code, "notion_denied");
    assert.deepEqual(body.error.details.return_path, "/app/bots");

    const wrong = { ...config, clientSecret: "not-the-secret" };
    const back = await consent((await begin(wrong)).toString(), "Allow access");
    const failed = await call(wrong, "exchange", owner.token, { state: back.searchParams.get("state"), code: back.searchParams.get("code") });
    assert.deepEqual(failed.status, 502);
    const failure = await failed.json();
    assert.deepEqual(failure.error.code, "notion_oauth_failed");
    assert.match(failure.error.message, /Invalid client credentials/);
    const { count } = await serviceClient().from("notion_connections").select("id", { count: "exact", head: true }).eq("user_id", owner.user.id);
    assert.deepEqual(count, 0, "failed and denied connections are deleted");

    // the deployed function without credentials, and without a signed-in user
    const unconfigured = await callFunction("notion-connect", { method: "POST", path: "/start", token: owner.token, body: "{}" });
    assert.deepEqual(unconfigured.status, 503);
    assert.deepEqual((await unconfigured.json()).error.code, "notion_not_configured");
    const anon = await call(config, "start", "not-a-jwt", { redirect_uri: REDIRECT, return_path: "/" });
    assert.deepEqual(anon.status, 401);
    await anon.body?.cancel();
  } finally {
    await api.close();
  }
});
