// ipKey: the address a per-IP limit counts by.
import assert from "node:assert/strict";
import { ipKey } from "./rate-limit.ts";

Deno.test("ipKey counts IPv4 by address and IPv6 by its /64", () => {
  assert.equal(ipKey("203.0.113.7"), "203.0.113.7");
  assert.equal(ipKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(ipKey("2001:db8:85a3:12:1:2:3:4"), "2001:db8:85a3:12::/64");
  assert.equal(ipKey("2001:DB8:85A3:0012:ffff:2:3:4"), "2001:db8:85a3:12::/64");
  assert.equal(ipKey("2001:db8::1"), "2001:db8:0:0::/64");
  assert.equal(ipKey("2001:db8:0:0:abcd::1"), ipKey("2001:db8::2"), "one /64, one key");
  assert.equal(ipKey("::1"), "0:0:0:0::/64");
});
