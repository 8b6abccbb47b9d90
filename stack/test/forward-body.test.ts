// forwardBody (stack/src/http.ts), which the gateway and the functions runtime use to copy an
// upstream answer to the caller: every byte arrives in order, a streamed answer is passed on as
// it comes (not held until the end), a large one respects back-pressure, and an answer read
// whole before it started flowing is not lost.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { forwardBody } from "../src/http.ts";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** A proxy in front of `upstreamPort` that copies answers with forwardBody, optionally after `delayMs`. */
function proxy(upstreamPort: number, delayMs = 0) {
  return listen((req, res) => {
    const up = http.request(
      { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        if (delayMs) {
          upRes.pause();
          setTimeout(() => forwardBody(upRes, res), delayMs);
        } else forwardBody(upRes, res);
      },
    );
    req.pipe(up);
  });
}

function get(
  port: number,
  onChunk?: (text: string) => void,
  slowReader = false,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/" }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          chunks.push(c);
          onChunk?.(c.toString());
          if (slowReader) {
            res.pause();
            setTimeout(() => res.resume(), 1);
          }
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

describe("forwardBody", () => {
  it("passes a streamed answer on as it comes, in order, and ends it", async () => {
    let release: () => void = () => {};
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: meta\ndata: {}\n\n");
      // The rest only once the caller has seen the first event: it was not held back.
      release = () => {
        for (let i = 0; i < 5; i++) res.write(`event: token\ndata: ${i}\n\n`);
        res.end("event: done\ndata: {}\n\n");
      };
    });
    const port = await proxy(upstream);
    let seenFirst = false;
    const r = await get(port, (text) => {
      if (!seenFirst && text.includes("event: meta")) {
        seenFirst = true;
        release();
      }
    });
    expect(seenFirst).toBe(true);
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe(
      "event: meta\ndata: {}\n\n" +
        [0, 1, 2, 3, 4].map((i) => `event: token\ndata: ${i}\n\n`).join("") +
        "event: done\ndata: {}\n\n",
    );
  });

  it("copies a large answer byte for byte to a slow reader (back-pressure)", async () => {
    const big = Buffer.alloc(8 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 13)) & 0xff;
    const upstream = await listen((_req, res) => {
      res.writeHead(200, { "content-length": String(big.length) });
      res.end(big);
    });
    const port = await proxy(upstream);
    const r = await get(port, undefined, true);
    expect(r.body.length).toBe(big.length);
    expect(r.body.equals(big)).toBe(true);
  });

  it("does not lose an answer that was read whole before it started flowing", async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true, items: [1, 2, 3] }));
    });
    const port = await proxy(upstream, 50);
    const r = await get(port);
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body.toString())).toEqual({ ok: true, items: [1, 2, 3] });
  });

  it("ends an answer without a body", async () => {
    const upstream = await listen((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const port = await proxy(upstream);
    const r = await get(port);
    expect(r.status).toBe(204);
    expect(r.body.length).toBe(0);
  });
});
