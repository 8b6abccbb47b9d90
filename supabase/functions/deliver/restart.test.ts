// The stack is killed (SIGKILL to every process of it, database included) right after a change
// commits and before its event is delivered; after a restart on the same data the event is
// delivered, signed, with the id it was given at commit time. This test starts its own stack.
import assert from "node:assert/strict";
import { createClient } from "npm:@supabase/supabase-js@2.119.1";
import { receiver } from "./test-helpers.ts";

const root = new URL("../../../", import.meta.url).pathname;

async function freePort(): Promise<number> {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

interface RunningStack {
  child: Deno.ChildProcess;
  url: string;
  anonKey: string;
  serviceKey: string;
}

/** Starts the stack in its own process group (setsid) so the whole of it can be killed at once. */
async function startStack(port: number, dbPort: number, dataDir: string): Promise<RunningStack> {
  const child = new Deno.Command("setsid", {
    args: ["node", `${root}stack/bin/parley-stack.mjs`, "start", "--port", String(port),
      "--db-port", String(dbPort), "--data-dir", dataDir, "--quiet"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let out = "";
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const deadline = Date.now() + 120_000;
  while (!out.includes("Parley stack is running")) {
    if (Date.now() > deadline) throw new Error(`the stack did not start:\n${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stack exited:\n${out}`);
    out += value;
  }
  // keep draining so the stack never blocks on a full pipe
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* killed */ }
  })();
  const field = (label: string) => new RegExp(`${label}: (\\S+)`).exec(out)?.[1] ?? "";
  return { child, url: field("API URL"), anonKey: field("anon key"), serviceKey: field("service_role key") };
}

async function killHard(s: RunningStack) {
  Deno.kill(-s.child.pid, "SIGKILL"); // the process group: the stack, Postgres, PostgREST, Deno workers
  await s.child.status;
  // wait until Postgres' processes are gone (they were in the group too)
  for (let i = 0; i < 100; i++) {
    const ps = await new Deno.Command("pgrep", { args: ["-g", String(s.child.pid)], stdout: "null" }).output();
    if (!ps.success) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

Deno.test({
  name: "an event committed just before the stack is killed is delivered after the restart",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const hook = receiver();
    const dataDir = await Deno.makeTempDir({ prefix: "parley-restart-" });
    const [port, dbPort] = [await freePort(), await freePort()];
    let s = await startStack(port, dbPort, dataDir);
    try {
      const admin = createClient(s.url, s.serviceKey, { auth: noSession });
      const email = `restart-${crypto.randomUUID()}@parley.test`;
      const created = await admin.auth.admin.createUser({ email, password: "correct-horse-9", email_confirm: true });
      if (created.error) throw created.error;
      const owner = createClient(s.url, s.anonKey, { auth: noSession });
      const signIn = await owner.auth.signInWithPassword({ email, password: "correct-horse-9" });
      if (signIn.error) throw signIn.error;
      const team = await owner.rpc("create_team", { name: "Restart", slug: `restart-${crypto.randomUUID().slice(0, 8)}` });
      if (team.error) throw team.error;
      const bot = await admin.from("bots").insert({ team_id: team.data.id, name: "Restart bot", visibility: "public" }).select("id").single();
      if (bot.error) throw bot.error;
      const ep = await owner.from("webhook_endpoints").insert({ bot_id: bot.data.id, url: hook.url, events: ["chat.created"] }).select("id").single();
      if (ep.error) throw ep.error;
      const secret = await owner.rpc("get_webhook_secret", { endpoint_id: ep.data.id });
      hook.setSecret(secret.data as string);

      const chat = await admin.from("chats").insert({ bot_id: bot.data.id, user_id: created.data.user.id, title: "before the crash" }).select("id").single();
      if (chat.error) throw chat.error;
      await killHard(s); // committed, not yet delivered
      assert.equal(hook.requests, 0, "nothing was delivered before the kill");

      s = await startStack(port, dbPort, dataDir);
      const res = await fetch(`${s.url}/functions/v1/deliver/tick`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.serviceKey}`, apikey: s.anonKey, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(res.status, 200, await res.text());
      assert.deepEqual(hook.refused, []);
      assert.equal(hook.received.length, 1, "the event survived the crash and was delivered");
      const body = hook.received[0].body as { type: string; data: { chat: { id: string; title: string } } };
      assert.equal(body.type, "chat.created");
      assert.equal(body.data.chat.id, chat.data.id);
      assert.equal(body.data.chat.title, "before the crash");
    } finally {
      try {
        await killHard(s);
      } catch { /* already gone */ }
      await hook.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
