// One bot with many due deliveries does not hold up other bots' (review C): a pass of the worker
// takes at most 3 heads of one bot, so another bot's delivery goes out in the same pass;
// endpoints (20 a bot) and test events (20 a minute a bot) are capped.
import assert from "node:assert/strict";
import type { Db } from "../_shared/clients.ts";
import { createLogger } from "../_shared/log.ts";
import { serviceClient, sql } from "../_shared/testing.ts";
import { createBot } from "../chat/test-helpers.ts";
import { createEndpoint } from "./test-helpers.ts";
import { deliverDue } from "./worker.ts";

function counter() {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await req.text();
    hits.push(new URL(req.url).pathname);
    return new Response("ok");
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, hits, close: () => server.shutdown() };
}

Deno.test("a pass takes at most 3 deliveries of one bot: another bot's goes out in the same pass", async () => {
  const busy = counter();
  const other = counter();
  const hostile = await createBot();
  const victim = await createBot();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push((await createEndpoint(hostile.owner.client, hostile.botId, `${busy.url}/h${i}`, ["chat.created"])).id);
    const extra = await hostile.owner.client
      .from("webhook_endpoints")
      .insert({ bot_id: hostile.botId, url: `${busy.url}/h20`, events: [] });
    assert.equal(extra.error?.hint, "too_many_endpoints", "the 21st endpoint is refused");
    for (const id of ids) {
      const r = await hostile.owner.client.rpc("send_test_webhook", { endpoint_id: id });
      assert.equal(r.error, null, JSON.stringify(r.error));
    }
    const over = await hostile.owner.client.rpc("send_test_webhook", { endpoint_id: ids[0] });
    assert.equal(over.error?.code, "PT429", "the 21st test event in a minute is refused");
    const vep = await createEndpoint(victim.owner.client, victim.botId, `${other.url}/v`, ["chat.created"]);
    assert.equal((await victim.owner.client.rpc("send_test_webhook", { endpoint_id: vep.id })).error, null);
    // the busy bot's 20 have waited longer than anything else in the queue; the victim's comes right after
    await sql("update public.webhook_deliveries set next_attempt_at = now() - interval '1 day' where bot_id = $1", [
      hostile.botId,
    ]);
    await sql(
      "update public.webhook_deliveries set next_attempt_at = now() - interval '1 day' + interval '1 minute' where bot_id = $1",
      [victim.botId],
    );

    const pass = await deliverDue(serviceClient() as unknown as Db, { max: 20, log: createLogger("deliver-test") });
    assert.ok(pass.claimed >= 4, `claimed ${pass.claimed}`);
    assert.equal(busy.hits.length, 3, "3 of the busy bot's deliveries in one pass");
    assert.deepEqual(other.hits, ["/v"], "the other bot's delivery in the same pass");
  } finally {
    await sql("delete from public.webhook_endpoints where bot_id = $1", [hostile.botId]);
    await busy.close();
    await other.close();
  }
});
