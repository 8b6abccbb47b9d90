// The dev mailbox: the JSON API tests use, the HTML pages (escaped, links kept
// clickable inside a sandboxed frame) and persistence under <dataDir>/mail.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "@supabase/supabase-js";
import { Mailbox } from "../src/mail/mailbox.ts";
import { listPage, messagePage } from "../src/mail/pages.ts";
import { nodeClientOptions, stackInfo } from "./helpers.ts";

const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;

async function signUp(email: string, locale?: string) {
  const s = stackInfo();
  const c = createClient(s.apiUrl, s.anonKey, { ...nodeClientOptions, auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await c.auth.signUp({ email, password: "mailbox-pass-1", options: { data: locale ? { locale } : {} } });
  expect(error).toBeNull();
}

describe("mailbox API", () => {
  it("is closed to other origins: no CORS headers, preflights refused (it holds sign-in links)", async () => {
    const base = stackInfo().apiUrl + "/mail";
    const res = await fetch(`${base}/api/messages?to=owner@parley.test`, { headers: { origin: "https://evil.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    await res.body?.cancel();
    const pre = await fetch(`${base}/api/messages`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    await pre.body?.cancel();
    // The APIs themselves still answer browsers on other origins.
    const rest = await fetch(`${stackInfo().apiUrl}/auth/v1/settings`, { headers: { origin: "https://app.example", apikey: stackInfo().anonKey } });
    expect(rest.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await rest.body?.cancel();
  });

  it("lists, reads and deletes messages per recipient", async () => {
    const base = stackInfo().apiUrl + "/mail";
    const email = uniqueEmail("Box");
    await signUp(email);
    const list = await (await fetch(`${base}/api/messages?to=${encodeURIComponent(email.toUpperCase())}`)).json();
    expect(list).toHaveLength(1);
    const m = list[0];
    expect(Object.keys(m).sort()).toEqual(["created_at", "from", "html", "id", "subject", "text", "to"]);
    expect(m.to).toBe(email.toLowerCase());
    expect(m.subject).toBe("Confirm your signup");
    // The project template links to the page that asked, with the token hash in the fragment.
    expect(m.html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+[^"#]*#token_hash=[0-9a-z_]+&type=signup"/);

    const one = await (await fetch(`${base}/api/messages/${m.id}`)).json();
    expect(one).toEqual(m);
    expect(fs.existsSync(path.join(stackInfo().dataDir, "mail", `${m.id}.json`))).toBe(true);

    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain(`/mail/m/${m.id}`);
    const view = await fetch(`${base}/m/${m.id}`);
    expect(view.headers.get("content-type")).toMatch(/text\/html/);
    expect(await view.text()).toContain("sandbox=");

    const del = await fetch(`${base}/api/messages?to=${encodeURIComponent(email)}`, { method: "DELETE" });
    expect(await del.json()).toEqual({ deleted: 1 });
    expect(await (await fetch(`${base}/api/messages?to=${encodeURIComponent(email)}`)).json()).toEqual([]);
    expect((await fetch(`${base}/api/messages/${m.id}`)).status).toBe(404);
    expect(fs.existsSync(path.join(stackInfo().dataDir, "mail", `${m.id}.json`))).toBe(false);
  });

  it("sends auth emails in each of the ten languages", async () => {
    const subjects: Record<string, string> = {
      en: "Confirm your signup", de: "Bestätigen Sie Ihre Registrierung", es: "Confirma tu registro", fr: "Confirmez votre inscription",
      it: "Conferma la tua registrazione", jp: "登録を確認してください", cn: "确认您的注册", el: "Επιβεβαιώστε την εγγραφή σας",
      pl: "Potwierdź rejestrację", nl: "Bevestig je registratie",
    };
    for (const [locale, subject] of Object.entries(subjects)) {
      const email = uniqueEmail(`lang-${locale}`);
      await signUp(email, locale);
      const [m] = await (await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(email)}`)).json();
      expect(m.subject, locale).toBe(subject);
    }
    // Anything else, even a value that is not a string, gets the English e-mail (not a failed one).
    for (const [tag, locale] of [["xx", "xx-YY"], ["num", 7]] as const) {
      const fallback = uniqueEmail(`lang-${tag}`);
      await signUp(fallback, locale as string);
      const [m] = await (await fetch(`${stackInfo().apiUrl}/mail/api/messages?to=${encodeURIComponent(fallback)}`)).json();
      expect(m.subject, tag).toBe("Confirm your signup");
    }
  });
});

describe("mailbox pages and storage", () => {
  it("escapes everything a message carries", () => {
    const hostile = {
      id: "x1", to: "a@b.c", from: "<script>alert(1)</script>", subject: `<img src=x onerror=alert(1)>"`, created_at: "2026-01-01T00:00:00Z",
      html: `<p>hi</p><a href="https://example.test/?a=1&b=2">link</a><script>alert(2)</script>`, text: "</pre><script>alert(3)</script>",
    };
    const list = listPage([hostile], `"><script>`);
    expect(list).not.toMatch(/<script>|<img/);
    expect(list).toContain("&lt;img src=x onerror=alert(1)&gt;&quot;");
    const view = messagePage(hostile);
    expect(view).not.toMatch(/<script>|<img/);
    // The message HTML lives only inside srcdoc, escaped, with links opening at the top level.
    expect(view).toContain('srcdoc="&lt;p&gt;hi&lt;/p&gt;&lt;a target=&quot;_top&quot; href=&quot;https://example.test/?a=1&amp;b=2&quot;&gt;link&lt;/a&gt;');
  });

  it("keeps messages across a restart and survives a broken file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-mailbox-"));
    try {
      const a = new Mailbox(dir);
      const m = a.store({ to: "Keep@Example.test", subject: "s", html: "<p>h</p>", text: "t" }, "Parley <noreply@parley.local>");
      fs.writeFileSync(path.join(dir, "broken.json"), "{not json");
      const b = new Mailbox(dir);
      expect(b.list("keep@example.test")).toEqual([m]);
      expect(b.clear()).toBe(1);
      expect(new Mailbox(dir).list()).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
