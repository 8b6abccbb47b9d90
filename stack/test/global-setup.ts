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
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from "./oauth-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of test/oauth-server.ts (Google under /google, Notion under /notion). */
    oauthUrl: string;
  }
}

let stack: RunningStack | undefined;
let dataDir: string | undefined;
let oauth: OAuthServer | undefined;

export async function setup(project: TestProject) {
  // The fixture's config.toml points Google and Notion sign-in at this local provider.
  oauth = await startOAuthServer();
  process.env.PARLEY_TEST_GOOGLE_URL = `${oauth.url}/google`;
  process.env.PARLEY_TEST_NOTION_URL = `${oauth.url}/notion`;
  process.env.PARLEY_TEST_GOOGLE_SECRET = OAUTH_CLIENTS.google.secret;
  process.env.PARLEY_TEST_NOTION_SECRET = OAUTH_CLIENTS.notion.secret;
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
    smtpPort: Number(new URL(stack.smtpUrl!).port),
  };
  project.provide("stack", info);
  project.provide("oauthUrl", oauth.url);
}

export async function teardown() {
  await stack?.stop();
  await oauth?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
