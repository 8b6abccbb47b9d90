// `parley-stack <command>`: start | status | db-reset | db-test | gen-types | gen-schema
import fs from "node:fs";
import path from "node:path";
import { parseArgs, type StackOptions } from "./config.ts";
import { loadKeys } from "./keys.ts";
import { httpGetJson, startStack, type RunningStack } from "./stack.ts";

function banner(s: RunningStack) {
  const lines = [
    "",
    "Parley stack is running.",
    "",
    `         API URL: ${s.apiUrl}`,
    `     GraphQL URL: (not served)`,
    `        REST URL: ${s.apiUrl}/rest/v1`,
    `   Functions URL: ${s.apiUrl}/functions/v1`,
    `          DB URL: ${s.dbUrl}`,
    `     Mailbox URL: ${s.apiUrl}/mail/`,
    ...(s.smtpUrl ? [`    Mailbox SMTP: ${s.smtpUrl}`] : []),
    ...(s.appUrl ? [`         App URL: ${s.appUrl}`] : []),
    `      JWT secret: ${s.keys.jwtSecret}`,
    `        anon key: ${s.keys.anonKey}`,
    `service_role key: ${s.keys.serviceRoleKey}`,
    ` Publishable key: ${s.keys.publishableKey}`,
    `      Secret key: ${s.keys.secretKey}`,
    `        Data dir: ${s.options.dataDir}`,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

function envLines(info: { apiUrl: string; dbUrl: string; appUrl?: string; anonKey: string; serviceRoleKey: string; jwtSecret: string }) {
  return [
    `API_URL=${info.apiUrl}`,
    `SUPABASE_URL=${info.apiUrl}`,
    `DB_URL=${info.dbUrl}`,
    `ANON_KEY=${info.anonKey}`,
    `SUPABASE_ANON_KEY=${info.anonKey}`,
    `SERVICE_ROLE_KEY=${info.serviceRoleKey}`,
    `SUPABASE_SERVICE_ROLE_KEY=${info.serviceRoleKey}`,
    `JWT_SECRET=${info.jwtSecret}`,
    ...(info.appUrl ? [`APP_URL=${info.appUrl}`] : []),
  ].join("\n");
}

async function start(options: StackOptions) {
  // A closed terminal or pipe (EPIPE) must never abort the shutdown that stops the children.
  process.stdout.on("error", () => {});
  process.stderr.on("error", () => {});
  const stack = await startStack(options);
  const infoFile = path.join(options.dataDir, "stack.json");
  fs.writeFileSync(infoFile, JSON.stringify({ apiUrl: stack.apiUrl, appUrl: stack.appUrl, dbUrl: stack.dbUrl, smtpUrl: stack.smtpUrl, pid: process.pid }, null, 2));
  banner(stack);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Parley stack...\n`);
    await stack.stop();
    fs.rmSync(infoFile, { force: true });
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGHUP", () => void shutdown("SIGHUP"));
}

async function status(options: StackOptions) {
  const infoFile = path.join(options.dataDir, "stack.json");
  if (!fs.existsSync(infoFile)) {
    console.error(`No stack is running with data dir ${options.dataDir} (start it with \`npm start\`).`);
    process.exit(1);
  }
  const info = JSON.parse(fs.readFileSync(infoFile, "utf8"));
  const keys = await loadKeys(options.dataDir);
  let health: unknown;
  try {
    health = await httpGetJson(`${info.apiUrl}/health`);
  } catch {
    console.error(`The stack recorded in ${infoFile} is not answering at ${info.apiUrl}.`);
    process.exit(1);
  }
  if (process.argv.includes("--env")) {
    console.log(envLines({ ...info, ...keys }));
    return;
  }
  console.log(`API URL: ${info.apiUrl}\nDB URL: ${info.dbUrl}${info.appUrl ? `\nApp URL: ${info.appUrl}` : ""}`);
  if (info.smtpUrl) console.log(`Mailbox SMTP: ${info.smtpUrl}`);
  console.log(`anon key: ${keys.anonKey}\nservice_role key: ${keys.serviceRoleKey}\nJWT secret: ${keys.jwtSecret}`);
  console.log(`health: ${JSON.stringify(health)}`);
  console.log("\n# as env lines (npm run status -- --env):");
  console.log(envLines({ ...info, ...keys }));
}

async function main() {
  const { command, options } = parseArgs(process.argv.slice(2));
  switch (command) {
    case "start":
      return start(options);
    case "status":
      return status(options);
    case "db-reset": {
      const { dbReset } = await import("./db-tools.ts");
      return dbReset(options);
    }
    case "db-test": {
      const { dbTest } = await import("./db-tools.ts");
      process.exitCode = await dbTest(options);
      return;
    }
    case "gen-types": {
      const { genTypes } = await import("./db-tools.ts");
      process.exitCode = await genTypes(options, process.argv.includes("--check"));
      return;
    }
    case "gen-schema": {
      const { genSchema } = await import("./db-tools.ts");
      process.exitCode = await genSchema(options, process.argv.includes("--check"));
      return;
    }
    default:
      console.error(`Unknown command "${command}". Commands: start, status, db-reset, db-test, gen-types, gen-schema`);
      process.exit(2);
  }
}

main().catch((e) => {
  console.error(`parley-stack: ${(e as Error).message}`);
  process.exit(1);
});
