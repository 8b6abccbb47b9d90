// POST /bot-login: a password bot refuses to chat until the right password
// writes a grant; wrong passwords are 401 incorrect_password; attempts are
// rate-limited per visitor and per IP, wrong ones also per bot (refusing only
// the visitors and addresses that failed on it).
import assert from "node:assert/strict";
import { callFunction, rateLimitHits, serviceClient, stack } from "../_shared/testing.ts";
import { chat, createBot, deletedVisitor, signedInUser } from "../chat/test-helpers.ts";

async function login(token: string, body: unknown, ip = `10.${rand()}.${rand()}.${rand()}`) {
  const res = await callFunction("bot-login", {
    method: "POST",
    token,
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json() };
}
const rand = () => Math.floor(Math.random() * 250) + 1;

Deno.test("a password bot refuses until bot-login grants access", async () => {
  const { botId } = await createBot({
    visibility: "password",
    password: "open-sesame-7",
    chunks: [{ title: "Secret", content: "The vault opens at noon." }],
  });
  const visitor = await signedInUser();
  const before = await chat(visitor.token, { bot_id: botId, message: "vault" });
  assert.equal(before.status, 403);
  assert.equal(before.json.error.code, "password_required");

  const wrong = await login(visitor.token, { bot_id: botId, password: "nope" });
  assert.equal(wrong.status, 401);
  assert.deepEqual(wrong.json, { error: { code: "incorrect_password", message: "Incorrect password" } });

  const right = await login(visitor.token, { bot_id: botId, password: "open-sesame-7" });
  assert.equal(right.status, 200);
  assert.deepEqual(right.json, { ok: true });
  const { data: grants } = await visitor.client.from("bot_access_grants").select("bot_id");
  assert.deepEqual(grants, [{ bot_id: botId }]);

  const after = await chat(visitor.token, { bot_id: botId, message: "When does the vault open?" });
  assert.equal(after.status, 200);
  assert.match(
    after.events
      .filter((e) => e.event === "token")
      .map((e) => e.data.text)
      .join(""),
    /noon/,
  );

  // Another visitor still needs the password.
  const other = await signedInUser();
  assert.equal((await chat(other.token, { bot_id: botId, message: "vault" })).status, 403);
});

Deno.test("bot-login: private and unknown bots are 404; public bots need no password", async () => {
  const priv = await createBot({ visibility: "private" });
  const pub = await createBot({ visibility: "public" });
  const visitor = await signedInUser();
  assert.equal((await login(visitor.token, { bot_id: priv.botId, password: "x" })).status, 404);
  assert.equal((await login(visitor.token, { bot_id: crypto.randomUUID(), password: "x" })).status, 404);
  const open = await login(visitor.token, { bot_id: pub.botId, password: "anything" });
  assert.deepEqual(open.json, { ok: true });
  const { count } = await serviceClient()
    .from("bot_access_grants")
    .select("*", { count: "exact", head: true })
    .eq("bot_id", pub.botId);
  assert.equal(count, 0, "no grant is written for a public bot");
});

Deno.test("bot-login: bad input and no session are clear 4xx", async () => {
  const visitor = await signedInUser();
  assert.equal((await login(stack.anonKey, { bot_id: crypto.randomUUID(), password: "x" })).status, 401);
  for (const body of [
    "{",
    { bot_id: "x", password: "y" },
    { bot_id: crypto.randomUUID(), password: "" },
    { bot_id: crypto.randomUUID() },
  ]) {
    const r = await login(visitor.token, body);
    assert.equal(r.status, 400);
    assert.ok(r.json.error.code);
  }
});

Deno.test("bot-login: the 6th attempt of a visitor within a minute is 429 with Retry-After", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-1" });
  const visitor = await signedInUser();
  for (let i = 0; i < 5; i++)
    assert.equal((await login(visitor.token, { bot_id: botId, password: `guess-${i}` })).status, 401);
  const r = await login(visitor.token, { bot_id: botId, password: "right-pass-1" });
  assert.equal(r.status, 429);
  assert.equal(r.json.error.code, "rate_limited");
  assert.ok(Number(r.headers.get("retry-after")) >= 1);
});

Deno.test("bot-login: attempts are also limited per IP across visitors", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-2" });
  const ip = `172.16.${rand()}.${rand()}`;
  let limited = 0;
  for (let i = 0; i < 31; i++) {
    const v = await signedInUser();
    const r = await login(v.token, { bot_id: botId, password: "wrong" }, ip);
    if (r.status === 429) limited++;
    else assert.equal(r.status, 401);
  }
  assert.equal(limited, 1, "the 31st attempt from one IP is refused");
});

Deno.test("bot-login: a deleted user's still-valid token is 401, not 500 (issue 13)", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-3" });
  const visitor = await deletedVisitor();
  const r = await login(visitor.token, { bot_id: botId, password: "right-pass-3" });
  assert.equal(r.status, 401);
  assert.equal(r.json.error.code, "session_required");
});

Deno.test("bot-login: only attempts past the visitor's and the address's limits, on a visible password bot, count against the bot (issue 13)", async () => {
  const priv = await createBot({ visibility: "private" });
  const stranger = await signedInUser();
  for (let i = 0; i < 3; i++) assert.equal((await login(stranger.token, { bot_id: priv.botId, password: "x" })).status, 404);
  assert.equal(await rateLimitHits(`bot-login:bot:${priv.botId}`), 0, "guesses at a bot the visitor cannot see spend nothing");

  const { botId } = await createBot({ visibility: "password", password: "right-pass-4" });
  const visitor = await signedInUser();
  for (let i = 0; i < 8; i++) {
    const r = await login(visitor.token, { bot_id: botId, password: `guess-${i}` });
    assert.equal(r.status, i < 5 ? 401 : 429, `attempt ${i}`);
  }
  assert.equal(await rateLimitHits(`bot-login:bot:${botId}`), 5, "the visitor's refused attempts did not count against the bot");
  // So the owner's real visitors still get in.
  const other = await signedInUser();
  assert.equal((await login(other.token, { bot_id: botId, password: "right-pass-4" })).status, 200);
});

Deno.test("bot-login: right passwords spend nothing of the bot's limit; only wrong ones do", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-5" });
  for (let i = 0; i < 3; i++) {
    const v = await signedInUser();
    assert.equal((await login(v.token, { bot_id: botId, password: "right-pass-5" })).status, 200);
  }
  assert.equal(await rateLimitHits(`bot-login:bot:${botId}`), 0);
  const v = await signedInUser();
  assert.equal((await login(v.token, { bot_id: botId, password: "wrong" })).status, 401);
  assert.equal(await rateLimitHits(`bot-login:bot:${botId}`), 1);
});

Deno.test("bot-login: strangers using up a bot's wrong guesses refuse only themselves; a visitor with the password from a clean address gets in", async () => {
  const { botId } = await createBot({ visibility: "password", password: "right-pass-6" });
  // 25 strangers from 5 addresses (one an IPv6 /64), 5 wrong guesses each: past the bot's 120 a minute.
  const net = `2001:db8:${rand().toString(16)}:${rand().toString(16)}`;
  const addresses = [`172.17.${rand()}.1`, `172.18.${rand()}.1`, `172.19.${rand()}.1`, `172.20.${rand()}.1`, `${net}::1`];
  const strangers = await Promise.all(Array.from({ length: 25 }, () => signedInUser()));
  const statuses = (await Promise.all(strangers.map(async (s, i) => {
    const seen: number[] = [];
    for (let g = 0; g < 5; g++) seen.push((await login(s.token, { bot_id: botId, password: `guess-${i}-${g}` }, addresses[i % 5])).status);
    return seen;
  }))).flat();
  // Guesses already past the check when the limit ran out are still answered (at most those in flight).
  assert.ok(statuses.every((s) => s === 401 || s === 429), statuses.join());
  assert.ok(statuses.filter((s) => s === 401).length >= 120, "each wrong guess up to the bot's limit was checked");
  assert.ok((await rateLimitHits(`bot-login:bot:${botId}`)) >= 120);

  // Anyone from an address (IPv6: its /64) that failed on the bot waits, whatever the password.
  for (const ip of [addresses[0]!, `${net}::2`]) {
    const fresh = await signedInUser();
    const r = await login(fresh.token, { bot_id: botId, password: "right-pass-6" }, ip);
    assert.equal(r.status, 429, ip);
    assert.equal(r.json.error.code, "rate_limited");
    assert.ok(Number(r.headers.get("retry-after")) >= 1);
  }

  // A fresh visitor from a clean address with the right password gets in, and spends nothing.
  const hitsBefore = await rateLimitHits(`bot-login:bot:${botId}`);
  const visitor = await signedInUser();
  assert.equal((await login(visitor.token, { bot_id: botId, password: "right-pass-6" }, `172.22.${rand()}.1`)).status, 200);
  assert.equal(await rateLimitHits(`bot-login:bot:${botId}`), hitsBefore);

  // A fresh guesser from a clean address gets one guess, then waits with the rest, from any address.
  const guesser = await signedInUser();
  assert.equal((await login(guesser.token, { bot_id: botId, password: "wrong-again" }, `172.23.${rand()}.1`)).status, 401);
  assert.equal((await login(guesser.token, { bot_id: botId, password: "right-pass-6" }, `172.24.${rand()}.1`)).status, 429);
});
