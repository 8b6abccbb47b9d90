// `npm run dev`: a function's worker is replaced when its files change, so the next
// call runs the new code (real Deno, no gateway).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FunctionsRuntime } from "../src/functions.ts";
import { createLogger } from "../src/log.ts";
import { repoRoot } from "../src/config.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-watch-"));
const fnDir = path.join(dir, "functions", "hello");
fs.mkdirSync(fnDir, { recursive: true });
const write = (text: string) => fs.writeFileSync(path.join(fnDir, "index.ts"), `Deno.serve(() => new Response(${JSON.stringify(text)}));\n`);
write("first");

const runtime = new FunctionsRuntime({
  functionsDir: path.join(dir, "functions"),
  config: {},
  env: {},
  cacheDir: path.resolve(process.env.DENO_DIR ?? path.join(repoRoot, ".cache", "deno")),
  log: createLogger("functions", true),
  watch: true,
});
const server = http.createServer((req, res) => void runtime.handle("hello", "/hello", req, req, res, {}));
const listening = new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)));

afterAll(async () => {
  await runtime.stop();
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("function reload in dev", () => {
  it("serves the edited code after a change", async () => {
    const url = `http://127.0.0.1:${await listening}/`;
    expect(await (await fetch(url)).text()).toBe("first");
    write("second");
    let body = "";
    for (let i = 0; i < 100 && body !== "second"; i++) {
      await new Promise((r) => setTimeout(r, 200));
      body = await fetch(url).then((r) => r.text(), () => "");
    }
    expect(body).toBe("second");
  });
});
