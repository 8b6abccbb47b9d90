// The gateway keeps its connections to a function's worker alive. A worker may close an idle one
// just as the gateway sends the next request on it (the keep-alive race): nothing reached the
// function, and the worker is well. Such a request is sent once more on a new connection when its
// body is in memory, and the worker is never killed for it. The worker here is a stand-in that
// speaks HTTP/1.1 itself (DENO_BIN), so the race happens on every reused connection: it answers the
// first request of a connection and closes the connection, unanswered, on the second.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FunctionsRuntime } from "../src/functions.ts";
import { createLogger } from "../src/log.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-keepalive-"));
fs.mkdirSync(path.join(dir, "functions", "racy"), { recursive: true });
fs.writeFileSync(path.join(dir, "functions", "racy", "index.ts"), "Deno.serve(() => new Response('unused'));\n");
const worker = path.join(dir, "worker.mjs");
fs.writeFileSync(
  worker,
  `import net from "node:net";
let answered = 0;
const server = net.createServer((socket) => {
  let buf = Buffer.alloc(0);
  let served = 0;
  socket.on("data", (d) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const end = buf.indexOf("\\r\\n\\r\\n");
      if (end < 0) return;
      const head = buf.subarray(0, end).toString();
      const length = Number(/content-length: *(\\d+)/i.exec(head)?.[1] ?? 0);
      const chunked = /transfer-encoding: *chunked/i.test(head);
      const bodyEnd = chunked ? buf.indexOf("0\\r\\n\\r\\n", end + 4) + 5 : end + 4 + length;
      if (chunked && bodyEnd < 5) return;
      if (buf.length < bodyEnd) return;
      const body = chunked ? "(chunked)" : buf.subarray(end + 4, bodyEnd).toString();
      buf = buf.subarray(bodyEnd);
      if (++served > 1) return socket.destroy(); // the race: closed as the request arrives
      const out = JSON.stringify({ body, answered: ++answered, pid: process.pid });
      socket.write("HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\nconnection: keep-alive\\r\\ncontent-length: " + Buffer.byteLength(out) + "\\r\\n\\r\\n" + out);
    }
  });
  socket.on("error", () => {});
});
const path = process.env.PARLEY_FUNCTION_SOCKET;
if (path) server.listen(path, () => console.log("PARLEY_FUNCTION_READY unix"));
else server.listen(0, "127.0.0.1", () => console.log("PARLEY_FUNCTION_READY " + server.address().port));
`,
);
const bin = path.join(dir, "deno");
fs.writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${worker}"\n`, { mode: 0o755 });

const previousBin = process.env.DENO_BIN;
process.env.DENO_BIN = bin;

function runtimeOn(socketDir?: string) {
  const runtime = new FunctionsRuntime({
    functionsDir: path.join(dir, "functions"),
    config: {},
    env: {},
    cacheDir: dir,
    log: createLogger("functions", true),
    socketDir,
  });
  let started = 0;
  runtime.onWorkerStarted = () => started++;
  const server = http.createServer((req, res) => void runtime.handle("racy", "/racy", req, req, res, { ...req.headers }));
  const port = new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));
  return { runtime, server, port, starts: () => started };
}

const runtimes: ReturnType<typeof runtimeOn>[] = [];

afterAll(async () => {
  for (const r of runtimes) {
    await r.runtime.stop();
    r.server.close();
  }
  if (previousBin === undefined) delete process.env.DENO_BIN;
  else process.env.DENO_BIN = previousBin;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One request from a client that does not keep its own connection (only the runtime's is reused). */
function call(port: number, body: string | string[]): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const chunked = Array.isArray(body);
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        agent: false,
        headers: chunked ? { "content-type": "text/plain" } : { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    if (chunked) {
      for (const part of body) req.write(part);
      req.end();
    } else req.end(body);
  });
}

for (const transport of ["loopback port", "unix socket"] as const) {
  describe(`the gateway's kept-alive connection to a worker (${transport})`, () => {
    const r = runtimeOn(transport === "unix socket" ? path.join(dir, `sockets-${runtimes.length}`) : undefined);
    runtimes.push(r);

    it("sends a request with its body in memory once more when the worker closed the connection under it", async () => {
      const port = await r.port;
      const first = await call(port, '{"n":1}');
      expect(first).toMatchObject({ status: 200, json: { body: '{"n":1}', answered: 1 } });
      // The runtime reuses the connection the worker answered on: the worker closes it unanswered.
      const second = await call(port, '{"n":2}');
      expect(second).toMatchObject({ status: 200, json: { body: '{"n":2}', answered: 2, pid: first.json.pid } });
      const third = await call(port, '{"n":3}');
      expect(third).toMatchObject({ status: 200, json: { body: '{"n":3}', answered: 3, pid: first.json.pid } });
      expect(r.starts()).toBe(1);
    });

    it("sends a request without a body once more too", async () => {
      const port = await r.port;
      // The previous test left a kept-alive connection that the worker closes on its next request.
      const res = await new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
        http.get({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
        }).on("error", reject);
      });
      expect(res).toMatchObject({ status: 200, json: { body: "" } });
      expect(r.starts()).toBe(1);
    });

    it("answers a streamed body it cannot send again with 502, and keeps the worker", async () => {
      const port = await r.port;
      // The previous test left a kept-alive connection that the worker closes on its next request.
      const streamed = await call(port, ["part one, ", "part two"]);
      expect(streamed.status).toBe(502);
      expect(streamed.json.code).toBe("FUNCTION_ERROR");
      const after = await call(port, '{"n":4}');
      expect(after).toMatchObject({ status: 200, json: { body: '{"n":4}' } });
      expect(r.starts()).toBe(1);
    });
  });
}
