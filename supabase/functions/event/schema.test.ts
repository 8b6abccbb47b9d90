// Unit tests of the event body rules (no network, no database):
//   deno test --no-config supabase/functions/event/schema.test.ts
import { eventSchema, normalizeKeys, toRow } from "./schema.ts";

function equal(actual: unknown, expected: unknown, what: string) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

Deno.test(
  "Plausible's short keys map to ours and props may be a JSON string",
  () => {
    const parsed = eventSchema.parse(
      normalizeKeys({
        n: "pageview",
        u: "https://parley.test/a",
        r: null,
        w: 390,
        h: 1,
        p: '{"plan":"pro"}',
      }),
    );
    equal(
      toRow(parsed, null),
      {
        name: "pageview",
        url: "https://parley.test/a",
        domain: "parley.test",
        referrer: null,
        width: 390,
        hash_mode: true,
        props: { plan: "pro" },
        revenue: null,
        user_id: null,
      },
      "row",
    );
  },
);

Deno.test("long URLs and prop values are cut, not refused", () => {
  const long = "https://parley.test/" + "a".repeat(5000);
  const parsed = eventSchema.parse({
    name: "x",
    url: long,
    referrer: long,
    props: { k: "v".repeat(5000) },
  });
  equal(parsed.url.length, 2048, "url length");
  equal(parsed.referrer?.length, 2048, "referrer length");
  equal((parsed.props?.k as string).length, 500, "prop length");
});

Deno.test("wrong shapes are refused", () => {
  const bad: unknown[] = [
    {},
    { name: "", url: "https://parley.test/" },
    { name: "x", url: "javascript:alert(1)" },
    { name: "x", url: "https://parley.test/", width: -1 },
    { name: "x", url: "https://parley.test/", props: { nested: { a: 1 } } },
    {
      name: "x",
      url: "https://parley.test/",
      props: Object.fromEntries(
        Array.from({ length: 31 }, (_, i) => [`k${i}`, i]),
      ),
    },
    {
      name: "x",
      url: "https://parley.test/",
      revenue: { currency: "euro", amount: 1 },
    },
    { name: "x".repeat(121), url: "https://parley.test/" },
  ];
  for (const body of bad)
    equal(
      eventSchema.safeParse(normalizeKeys(body)).success,
      false,
      JSON.stringify(body).slice(0, 80),
    );
});
