// A whole Parley for browser journeys: the real stack of this repository (migrations,
// seed, auth, storage, realtime, functions) serving the built app, on free ports with a
// temporary data dir, plus helpers to read the dev mailbox.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startStack, type RunningStack } from "../../stack/src/stack.ts";
import { freePort } from "../../stack/src/net.ts";
import { ensureBuild, repoRoot } from "./app.ts";

export interface FullApp {
  appUrl: string;
  apiUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  dbUrl: string;
  stack: RunningStack;
  /** Waits for the newest email to `to` (optionally whose subject matches) and returns it. */
  waitForMail(to: string, subject?: RegExp, timeoutMs?: number): Promise<Mail>;
  /** The first link in a mail whose URL matches. */
  linkIn(mail: Mail, match: RegExp): string;
  /**
   * Signs in through the real auth service and returns the app's session cookie(s) for
   * `context.addCookies` (the name @supabase/ssr uses, split above 3180 characters as it does).
   */
  sessionCookies(email: string, password: string): Promise<{ name: string; value: string; url: string }[]>;
  /** The same cookie(s) for a session got otherwise (e.g. after the second-factor step, lib/totp.ts). */
  cookiesOf(session: object): { name: string; value: string; url: string }[];
  stop(): Promise<void>;
}

export interface Mail {
  id: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
}

export async function startFullApp(opts: { env?: Record<string, string> } = {}): Promise<FullApp> {
  ensureBuild();
  // A free port can be taken by another process (the other lane's stack, its SMTP door) between
  // the check and the stack's listen: start again on other ports, a few times.
  let dataDir = "";
  let stack: Awaited<ReturnType<typeof startStack>> | undefined;
  for (let attempt = 1; !stack; attempt++) {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-"));
    const appPort = await freePort();
    try {
      stack = await startStack({
        workdir: repoRoot,
        port: await freePort(),
        dbPort: await freePort(),
        appPort,
        dataDir,
        serveApp: true,
        // The app's own address is where auth redirects point (site_url and the redirect allow-list).
        siteUrl: `http://127.0.0.1:${appPort}`,
        quiet: !process.env.PARLEY_TEST_VERBOSE,
        noSchedules: true,
        functionEnv: opts.env,
      });
    } catch (e) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 3 || !/already in use|EADDRINUSE/i.test(String((e as Error).message))) throw e;
    }
  }
  const apiUrl = stack.apiUrl;
  const app: FullApp = {
    appUrl: stack.appUrl!,
    apiUrl,
    anonKey: stack.keys.anonKey,
    serviceRoleKey: stack.keys.serviceRoleKey,
    dbUrl: stack.dbUrl,
    stack,
    async waitForMail(to, subject, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const r = await fetch(`${apiUrl}/mail/api/messages?to=${encodeURIComponent(to)}`);
        const list = (await r.json()) as Mail[];
        const hit = list.find((m) => !subject || subject.test(m.subject));
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ""}`);
        await new Promise((res) => setTimeout(res, 200));
      }
    },
    linkIn(mail, match) {
      const links = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
      const link = links.find((l) => match.test(l));
      if (!link) throw new Error(`no link matching ${match} in mail "${mail.subject}": ${links.join(", ")}`);
      return link;
    },
    async sessionCookies(email, password) {
      const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { apikey: stack.keys.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${email} failed: ${res.status} ${await res.text()}`);
      return app.cookiesOf((await res.json()) as object);
    },
    cookiesOf(session) {
      const value = `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`;
      const name = `sb-${new URL(apiUrl).hostname.split(".")[0]}-auth-token`;
      const parts = value.length <= 3180 ? [[name, value]] : (value.match(/.{1,3180}/g) ?? []).map((v, i) => [`${name}.${i}`, v]);
      return parts.map(([n, v]) => ({ name: n!, value: v!, url: stack.appUrl! }));
    },
    async stop() {
      await stack.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}
