// `npm run dev`: the stack runs Vite for the app (hot reload) next to the APIs, and
// stopping the stack stops Vite too.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../src/net.ts";
import { fixtureDir } from "./fixture.ts";

const cli = path.resolve(fixtureDir, "../../bin/parley-stack.mjs");

describe("dev mode", () => {
  it("serves the app through Vite with the stack, and stops both", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-dev-"));
    const [port, dbPort, appPort] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(process.execPath, [cli, "start", "--dev-app", "--workdir", fixtureDir, "--port", String(port), "--db-port", String(dbPort), "--app-port", String(appPort), "--data-dir", dataDir, "--no-seed"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const exit = new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
    try {
      let page = "";
      for (let i = 0; i < 150 && !page.includes("/@vite/client"); i++) {
        await new Promise((r) => setTimeout(r, 200));
        page = await fetch(`http://127.0.0.1:${appPort}/`).then((r) => r.text(), () => "");
      }
      expect(page, out).toContain("/@vite/client");
      expect((await fetch(`http://127.0.0.1:${port}/health`)).ok).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exit).toBe(0);
    const appDown = await fetch(`http://127.0.0.1:${appPort}/`).then(() => false, () => true);
    expect(appDown).toBe(true);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);
});
