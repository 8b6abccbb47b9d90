// Serves a web-standard handler (Request → Response) with node:http on 127.0.0.1: the
// browser tests' way of running the fakes the Deno function tests run with Deno.serve.
import http from "node:http";

export interface Served {
  url: string;
  close(): Promise<void>;
}

export function serveFake(handle: (req: Request) => Response | Promise<Response>): Promise<Served> {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
      const out = await handle(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
      res.writeHead(out.status, Object.fromEntries(out.headers));
      res.end(Buffer.from(await out.arrayBuffer()));
    } catch (e) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(e));
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }),
      });
    }),
  );
}
