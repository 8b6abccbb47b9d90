import assert from "node:assert/strict";
import { FifoSlots } from "./slots.ts";

Deno.test("FifoSlots: at most N at once, the rest in the order they came, a failure frees its slot", async () => {
  Deno.env.set("PARLEY_TEST_SLOTS", "2");
  const slots = new FifoSlots("PARLEY_TEST_SLOTS", 8);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const gates = Array.from({ length: 6 }, () => Promise.withResolvers<void>());
  const runs = gates.map((g, i) =>
    slots.run(async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await g.promise;
      running--;
      if (i === 1) throw new Error("boom");
      return i;
    })
  );
  const settled = Promise.allSettled(runs);
  // Release them out of order: the waiting ones still start in arrival order.
  for (const i of [1, 0, 3, 2, 5, 4]) {
    gates[i]!.resolve();
    await new Promise((r) => setTimeout(r, 1));
  }
  const results = await settled;
  assert.equal(most, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  assert.equal(results[1]!.status, "rejected");
  assert.deepEqual(results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<number>).value), [0, 2, 3, 4, 5]);
  Deno.env.delete("PARLEY_TEST_SLOTS");
});
