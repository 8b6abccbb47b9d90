// ipKey: the address a per-IP limit counts by; clientIp: only an address; storableKey: a key the database takes.
import assert from "node:assert/strict";
import { clientIp } from "./http.ts";
import { ipKey, storableKey } from "./rate-limit.ts";

Deno.test("clientIp passes on only what can be an address; storableKey keeps keys within 300 characters", async () => {
  const from = (ip: string) => clientIp(new Request("http://x/", { headers: { "x-real-ip": ip } }));
  assert.equal(from("203.0.113.7"), "203.0.113.7");
  assert.equal(from("2001:db8::1"), "2001:db8::1");
  assert.equal(from("x".repeat(5000)), "invalid");
  assert.equal(from("' OR 1=1 --"), "invalid");
  assert.equal(clientIp(new Request("http://x/")), "unknown");
  assert.equal(await storableKey("event:ip:203.0.113.7"), "event:ip:203.0.113.7");
  const long = `account-notice:email:${"a".repeat(300)}@x.test`;
  const key = await storableKey(long);
  assert.ok(key.length <= 300 && key.startsWith("account-notice:email:aaa"));
  assert.notEqual(key, await storableKey(`${long}x`), "different keys stay different");
});

Deno.test("ipKey counts IPv4 by address and IPv6 by its /64", () => {
  assert.equal(ipKey("203.0.113.7"), "203.0.113.7");
  assert.equal(ipKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(ipKey("2001:db8:85a3:12:1:2:3:4"), "2001:db8:85a3:12::/64");
  assert.equal(ipKey("2001:DB8:85A3:0012:ffff:2:3:4"), "2001:db8:85a3:12::/64");
  assert.equal(ipKey("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(ipKey("2001:db8:0:0:abcd::1"), ipKey("2001:db8::2"), "one /64, one key");
  assert.equal(ipKey("::1"), "0:0:0:0::/64");
});
