// Starts one stack for the whole run: the fixture project (test/fixture/supabase)
// on free ports with a temporary data dir, and hands its URLs and keys to tests.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startStack, type RunningStack } from "../src/stack.ts";
import { freePort } from "../src/net.ts";
import { fixtureDir } from "./fixture.ts";
import type { StackInfo } from "./helpers.ts";

let stack: RunningStack | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-test-"));
  stack = await startStack({
    workdir: fixtureDir,
    port: await freePort(),
    dbPort: await freePort(),
    dataDir,
    quiet: !process.env.PARLEY_TEST_VERBOSE,
    functionEnv: { FIXTURE_SECRET: "from-stack" },
  });
  const info: StackInfo = {
    apiUrl: stack.apiUrl,
    dbUrl: stack.dbUrl,
    anonKey: stack.keys.anonKey,
    serviceRoleKey: stack.keys.serviceRoleKey,
    publishableKey: stack.keys.publishableKey,
    secretKey: stack.keys.secretKey,
    jwtSecret: stack.keys.jwtSecret,
    dataDir,
  };
  project.provide("stack", info);
}

export async function teardown() {
  await stack?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
