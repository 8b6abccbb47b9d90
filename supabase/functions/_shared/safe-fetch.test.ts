import assert from "node:assert/strict";
import { promises as dnsPromises } from "node:dns";
import {
  assertUrlAllowed,
  cachingResolver,
  classifyAddress,
  isAddressAllowed,
  parseIPv6,
  safeFetch,
  SafeFetchError,
  USER_AGENT,
} from "./safe-fetch.ts";

/** Runs fn with the dev allowances cleared (the test runner sets PARLEY_FETCH_ALLOW_PRIVATE=1). */
async function withoutDevAllowances<T>(fn: () => Promise<T> | T, hosts?: string): Promise<T> {
  const saved = [Deno.env.get("PARLEY_FETCH_ALLOW_PRIVATE"), Deno.env.get("PARLEY_FETCH_ALLOW_HOSTS")];
  Deno.env.delete("PARLEY_FETCH_ALLOW_PRIVATE");
  if (hosts) Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", hosts);
  else Deno.env.delete("PARLEY_FETCH_ALLOW_HOSTS");
  try {
    return await fn();
  } finally {
    if (saved[0] !== undefined) Deno.env.set("PARLEY_FETCH_ALLOW_PRIVATE", saved[0]);
    if (saved[1] !== undefined) Deno.env.set("PARLEY_FETCH_ALLOW_HOSTS", saved[1]);
    else Deno.env.delete("PARLEY_FETCH_ALLOW_HOSTS");
  }
}

async function rejectsWith(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof SafeFetchError, `expected SafeFetchError, got ${e}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

Deno.test("IPv6 parsing handles ::, embedded IPv4 and zones", () => {
  assert.deepEqual(parseIPv6("::1"), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(parseIPv6("::ffff:127.0.0.1"), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.deepEqual(parseIPv6("[fe80::1%eth0]"), [0xfe80, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(parseIPv6("2001:db8:0:0:0:0:0:1"), [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
  assert.equal(parseIPv6("1::2::3"), null);
  assert.equal(parseIPv6("12345::"), null);
  assert.equal(parseIPv6("1:2:3:4:5:6:7:8:9"), null);
});

Deno.test("addresses are classified", () => {
  const cases: Record<string, string> = {
    "8.8.8.8": "public",
    "127.0.0.1": "loopback",
    "127.9.9.9": "loopback",
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "172.31.255.255": "private",
    "172.32.0.1": "public",
    "192.168.1.1": "private",
    "100.64.0.1": "cgnat",
    "169.254.169.254": "metadata",
    "169.254.1.1": "link_local",
    "0.0.0.0": "unspecified",
    "224.0.0.1": "multicast",
    "255.255.255.255": "reserved",
    "::": "unspecified",
    "::1": "loopback",
    "::ffff:10.0.0.1": "private",
    "::ffff:169.254.169.254": "metadata",
    "::ffff:7f00:1": "loopback",
    "64:ff9b::127.0.0.1": "loopback",
    "fd00:ec2::254": "metadata",
    "fc00::1": "private",
    "fe80::1": "link_local",
    "ff02::1": "multicast",
    "2606:4700::1111": "public",
    "not-an-ip": "reserved",
  };
  for (const [ip, expected] of Object.entries(cases)) assert.equal(classifyAddress(ip), expected, ip);
});

Deno.test("without dev allowances only public addresses pass; metadata never does", async () => {
  await withoutDevAllowances(() => {
    assert.equal(isAddressAllowed("93.184.216.34", "example.com"), true);
    assert.equal(isAddressAllowed("127.0.0.1", "127.0.0.1"), false);
    assert.equal(isAddressAllowed("10.0.0.5", "intranet"), false);
    assert.equal(isAddressAllowed("::ffff:192.168.0.1", "x"), false);
  });
  assert.equal(isAddressAllowed("127.0.0.1", "127.0.0.1", true), true);
  assert.equal(isAddressAllowed("169.254.169.254", "x", true), false);
  assert.equal(isAddressAllowed("fd00:ec2::254", "x", true), false);
  assert.equal(isAddressAllowed("fe80::1", "x", true), false);
  await withoutDevAllowances(() => {
    assert.equal(isAddressAllowed("127.0.0.1", "fixture.test"), true);
    assert.equal(isAddressAllowed("127.0.0.1", "other.test"), false);
  }, "fixture.test");
});

Deno.test("hosts are checked after DNS resolution", async () => {
  await withoutDevAllowances(async () => {
    const resolve = (answers: Record<string, string[]>) => (h: string) => Promise.resolve(answers[h] ?? []);
    await assertUrlAllowed(new URL("https://docs.example/"), {
      resolve: resolve({ "docs.example": ["93.184.216.34"] }),
    });
    await rejectsWith(
      assertUrlAllowed(new URL("https://rebind.example/"), {
        resolve: resolve({ "rebind.example": ["93.184.216.34", "10.0.0.1"] }),
      }),
      "blocked_address",
    );
    await rejectsWith(
      assertUrlAllowed(new URL("http://meta.example/"), { resolve: resolve({ "meta.example": ["169.254.169.254"] }) }),
      "blocked_address",
    );
    await rejectsWith(assertUrlAllowed(new URL("http://nowhere.example/"), { resolve: resolve({}) }), "dns_failed");
    await rejectsWith(assertUrlAllowed(new URL("http://localhost:8080/")), "blocked_address");
    await rejectsWith(assertUrlAllowed(new URL("http://[::ffff:127.0.0.1]/")), "blocked_address");
    await rejectsWith(assertUrlAllowed(new URL("http://2130706433/")), "blocked_address"); // WHATWG URL makes it 127.0.0.1
    await rejectsWith(assertUrlAllowed(new URL("file:///etc/passwd")), "unsupported_scheme");
    await rejectsWith(assertUrlAllowed(new URL("http://user:pw@example.com/")), "invalid_url");
  });
});

Deno.test("a caching resolver looks a host up once per TTL, and its answers are still checked", async () => {
  await withoutDevAllowances(async () => {
    let clock = 0;
    const lookups: string[] = [];
    const answers: Record<string, string[]> = { "docs.example": ["93.184.216.34"], "rebind.example": ["10.0.0.1"] };
    const resolve = cachingResolver(
      (h) => {
        lookups.push(h);
        return Promise.resolve(answers[h] ?? []);
      },
      1_000,
      () => clock,
    );
    await assertUrlAllowed(new URL("https://docs.example/a"), { resolve });
    await assertUrlAllowed(new URL("https://docs.example/b"), { resolve });
    assert.deepEqual(lookups, ["docs.example"], "the second page of the host is not looked up again");
    // a refused answer stays refused on every request, cached or not
    await rejectsWith(assertUrlAllowed(new URL("http://rebind.example/"), { resolve }), "blocked_address");
    await rejectsWith(assertUrlAllowed(new URL("http://rebind.example/x"), { resolve }), "blocked_address");
    // after the TTL the host is looked up again and a changed answer is seen (and checked)
    clock = 1_000;
    answers["docs.example"] = ["10.1.2.3"];
    await rejectsWith(assertUrlAllowed(new URL("https://docs.example/c"), { resolve }), "blocked_address");
    assert.deepEqual(lookups, ["docs.example", "rebind.example", "docs.example"]);
    // an empty answer is not remembered
    await rejectsWith(assertUrlAllowed(new URL("http://nowhere.example/"), { resolve }), "dns_failed");
    answers["nowhere.example"] = ["93.184.216.35"];
    await assertUrlAllowed(new URL("http://nowhere.example/"), { resolve });
  });
});

Deno.test("safeFetch follows redirects by hand, checking every hop", async () => {
  let seenAgent = "";
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const u = new URL(req.url);
    seenAgent = req.headers.get("user-agent") ?? "";
    const port = u.port;
    switch (u.pathname) {
      case "/ok":
        return new Response("hello");
      case "/hop":
        return new Response(null, { status: 302, headers: { location: "/ok" } });
      case "/to-metadata":
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
      case "/to-localhost":
        return new Response(null, { status: 301, headers: { location: `http://localhost:${port}/ok` } });
      case "/loop":
        return new Response(null, { status: 302, headers: { location: "/loop" } });
      case "/big":
        return new Response("x".repeat(5000));
      default:
        return new Response("nope", { status: 404 });
    }
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const ok = await safeFetch(`${base}/hop`, { allowPrivate: true });
    assert.equal(ok.status, 200);
    assert.equal(ok.text(), "hello");
    assert.equal(ok.url, `${base}/ok`);
    assert.deepEqual(ok.redirects, [`${base}/hop`]);
    assert.equal(seenAgent, USER_AGENT);

    await rejectsWith(safeFetch(`${base}/to-metadata`, { allowPrivate: true }), "blocked_address");
    await rejectsWith(safeFetch(`${base}/loop`, { allowPrivate: true }), "too_many_redirects");
    await rejectsWith(safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1000 }), "too_large");
    const cut = await safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1000, onTooLarge: "truncate" });
    assert.equal(cut.bytes.byteLength, 1000);
    assert.equal(cut.truncated, true);
    const missing = await safeFetch(`${base}/missing`, { allowPrivate: true });
    assert.equal(missing.status, 404);

    await withoutDevAllowances(() => rejectsWith(safeFetch(`${base}/ok`), "blocked_address"));
    await withoutDevAllowances(async () => {
      // the allowed host may be fetched, but its redirect to another loopback name may not
      assert.equal((await safeFetch(`${base}/ok`)).status, 200);
      await rejectsWith(safeFetch(`${base}/to-localhost`), "blocked_address");
    }, "127.0.0.1");
  } finally {
    await server.shutdown();
  }
});

/**
 * A local server reached through a name the system resolver answers (this machine's host name,
 * from /etc/hosts or nss): the address a plain fetch would connect to after its own lookup.
 */
async function serverBehindSystemName() {
  const name = Deno.hostname();
  const { address } = await dnsPromises.lookup(name, { family: 4 });
  const hits: string[] = [];
  const server = Deno.serve({ port: 0, hostname: address, onListen() {} }, (req) => {
    hits.push(new URL(req.url).pathname);
    return new Response("internal secret");
  });
  return { name, hits, base: `http://${name}:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("safeFetch connects to the address it checked, not to a second DNS answer (rebinding)", async () => {
  const internal = await serverBehindSystemName();
  try {
    // The unpinned path: fetch looks the name up again and reaches the local server.
    const plain = await fetch(`${internal.base}/plain`);
    assert.equal(await plain.text(), "internal secret");
    assert.deepEqual(internal.hits, ["/plain"], "the system resolver leads to the local server");
    await withoutDevAllowances(async () => {
      // The attacker's DNS answers a public address when checked; the system resolver (the
      // second answer) says loopback. The request must go to the checked address only.
      // Whatever answers at the public address (nothing, or a network's interceptor), it is
      // not the local server.
      const resolve = () => Promise.resolve(["93.184.216.34"]);
      for (const r of [resolve, cachingResolver(resolve)]) {
        const outcome = await safeFetch(`${internal.base}/rebound`, { resolve: r, timeoutMs: 500 }).then(
          (res) => res.text(),
          (e: unknown) => (e instanceof SafeFetchError ? e.code : String(e)),
        );
        assert.notEqual(outcome, "internal secret");
      }
    });
    assert.deepEqual(internal.hits, ["/plain"], "the local server was never reached through the checked name");
  } finally {
    await internal.close();
  }
});

Deno.test("safeFetch sends the caller's headers only to the first URL's origin", async () => {
  const seen: Record<string, Headers> = {};
  const other = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seen[`other${new URL(req.url).pathname}`] = req.headers;
    return new Response("other");
  });
  const first = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen[`first${path}`] = req.headers;
    if (path === "/open-redirect") {
      return new Response(null, { status: 307, headers: { location: `http://127.0.0.1:${other.addr.port}/landing` } });
    }
    if (path === "/same-origin") return new Response(null, { status: 302, headers: { location: "/landing" } });
    if (path === "/gzip") {
      const gz = new Blob(["compressed hello"]).stream().pipeThrough(new CompressionStream("gzip"));
      return new Response(gz, { headers: { "content-encoding": "gzip", "content-type": "text/plain" } });
    }
    return new Response("first");
  });
  const base = `http://127.0.0.1:${first.addr.port}`;
  const headers = {
    Authorization: "Bearer s3cret",
    "x-api-key": "s3cret-too",
    accept: "application/json",
    "content-type": "application/json",
  };
  try {
    const same = await safeFetch(`${base}/same-origin`, { allowPrivate: true, headers });
    assert.equal(same.text(), "first");
    assert.equal(seen["first/landing"].get("authorization"), "Bearer s3cret", "a same-origin hop keeps the headers");
    assert.equal(seen["first/landing"].get("x-api-key"), "s3cret-too");

    const cross = await safeFetch(`${base}/open-redirect`, { allowPrivate: true, method: "POST", body: "{}", headers });
    assert.equal(cross.text(), "other");
    assert.equal(seen["first/open-redirect"].get("x-api-key"), "s3cret-too", "the first URL gets them");
    const landed = seen["other/landing"];
    assert.equal(landed.get("authorization"), null, "no credentials to another origin");
    assert.equal(landed.get("x-api-key"), null, "no secret headers to another origin");
    assert.equal(landed.get("accept"), "application/json", "content headers still travel");
    assert.equal(landed.get("user-agent"), USER_AGENT);

    const gz = await safeFetch(`${base}/gzip`, { allowPrivate: true });
    assert.equal(gz.text(), "compressed hello", "a gzip body is decoded");
  } finally {
    await first.shutdown();
    await other.shutdown();
  }
});

Deno.test("https through the pinned connection: TLS is verified against the URL's host name", async () => {
  const crt = new URL("./testdata/pinned-test.crt", import.meta.url);
  const cert = await Deno.readTextFile(crt);
  const key = await Deno.readTextFile(new URL("./testdata/pinned-test.key", import.meta.url));
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", cert, key, onListen() {} },
    (req) => new Response(`tls ${req.headers.get("host")}`),
  );
  const port = server.addr.port;
  try {
    // A child process trusts the test certificate (node:https reads NODE_EXTRA_CA_CERTS at start).
    const script = `
      import { pinnedRequest } from ${JSON.stringify(new URL("./safe-fetch.ts", import.meta.url).href)};
      const out = [];
      for (const host of ["pinned.test", "other.test"]) {
        const url = new URL("https://" + host + ":${port}/");
        out.push(await pinnedRequest(url, ["127.0.0.1"], { method: "GET", headers: {}, body: null }).then(
          (r) => r.text(),
          (e) => "refused: " + e.message,
        ));
      }
      console.log(JSON.stringify(out));`;
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", "--node-modules-dir=none", script],
      env: { NODE_EXTRA_CA_CERTS: crt.pathname },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(child.stderr);
    assert.equal(child.code, 0, stderr);
    const [pinned, other] = JSON.parse(new TextDecoder().decode(child.stdout));
    assert.equal(pinned, `tls pinned.test:${port}`, "connected to the checked address, SNI and Host on the name");
    assert.match(other, /^refused: .*(altnames|certificate)/, "a name the certificate does not cover is refused");
  } finally {
    await server.shutdown();
  }
});
