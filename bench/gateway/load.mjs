// The load generator of run.mjs, in its own thread: the stack (gateway included) runs in the
// main thread's event loop, so a client there would compete with the gateway for it and charge
// the gateway phase for the client's own HTTP and JSON work. Both phases run from here.
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import pg from "pg";

const { mode, concurrency, warmupMs, measureMs } = workerData;

let once;
let close = async () => {};
if (mode === "gateway") {
  const { apiUrl, path, headers } = workerData;
  const url = new URL(apiUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  once = () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () =>
          res.statusCode === 200 ? resolve(JSON.parse(body).length) : reject(new Error(`${res.statusCode} ${body}`)),
        );
      });
      req.on("error", reject);
      req.end();
    });
  close = async () => agent.destroy();
} else {
  const { dbUrl, sql, params, claims } = workerData;
  const pool = new pg.Pool({ connectionString: dbUrl, max: concurrency });
  once = async () => {
    const c = await pool.connect();
    try {
      await c.query("begin");
      await c.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
        JSON.stringify(claims),
      ]);
      const r = await c.query(sql, params);
      await c.query("commit");
      return r.rowCount;
    } finally {
      c.release();
    }
  };
  close = () => pool.end();
}

async function loop(ms) {
  const end = Date.now() + ms;
  let n = 0;
  let rows = -1;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        rows = await once();
        n++;
      }
    }),
  );
  return { n, rows };
}

await loop(warmupMs);
parentPort.postMessage({ measuring: true });
const result = await loop(measureMs);
// The main thread reads the processes' CPU time now; closing first would end the direct phase's
// Postgres backends and take their CPU time out of /proc.
parentPort.postMessage(result);
await new Promise((resolve) => parentPort.once("message", resolve));
await close();
parentPort.postMessage({ closed: true });
