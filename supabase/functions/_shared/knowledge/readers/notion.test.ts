// A Notion source's own `api_url` is a development setting: outside development (no dev allowance
// for private addresses) its stored access token is never sent there.
import assert from "node:assert/strict";
import { readNotion } from "./notion.ts";
import type { SourceContext } from "./types.ts";

function context(allowPrivate: boolean): SourceContext & { failures: string[] } {
  const failures: string[] = [];
  return {
    failures,
    botLanguage: "en",
    allowPrivate,
    emit: () => Promise.resolve(),
    fail: (_url, code) => void failures.push(code),
    warn: () => {},
    progress: () => Promise.resolve(),
    cancelled: () => Promise.resolve(false),
  };
}

Deno.test("a Notion source's api_url gets the team's token only in development", async () => {
  const seen: (string | null)[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seen.push(req.headers.get("authorization"));
    return Response.json({ object: "error", status: 404, code: "object_not_found", message: "no" }, { status: 404 });
  });
  // `localhost`, allowed by name (PARLEY_FETCH_ALLOW_HOSTS), stands in for a public host of someone's choosing.
  const settings = { pages: ["0123456789abcdef0123456789abcdef"], api_url: `http://localhost:${server.addr.port}` };
  const allowHosts = Deno.env.get("PARLEY_FETCH_ALLOW_HOSTS");
  Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", "localhost");
  // The operator's Notion address, for this test a private one the guard refuses: nothing leaves the machine.
  const operatorUrl = Deno.env.get("PARLEY_NOTION_API_URL");
  Deno.env.set("PARLEY_NOTION_API_URL", "http://10.255.255.1:9");
  try {
    const prod = context(false);
    await readNotion(settings, "secret_team_token", prod).catch(() => {});
    assert.deepEqual(seen, [], "outside development the source's api_url is not used");
    assert.ok(prod.failures.length > 0, "the page could not be read from the operator's (refused) address");

    const dev = context(true);
    await readNotion(settings, "secret_team_token", dev).catch(() => {});
    assert.ok(seen.length > 0, "in development it is (the tests' local Notion)");
    assert.equal(seen[0], "Bearer secret_team_token");
  } finally {
    if (allowHosts === undefined) Deno.env.delete("PARLEY_FETCH_ALLOW_HOSTS");
    else Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", allowHosts);
    if (operatorUrl === undefined) Deno.env.delete("PARLEY_NOTION_API_URL");
    else Deno.env.set("PARLEY_NOTION_API_URL", operatorUrl);
    await server.shutdown();
  }
});
