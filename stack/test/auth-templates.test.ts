// Auth e-mails as GoTrue reads them: the Go template subset (values, escaping, if/else
// chains, eq on missing values, trim markers, comments, clear errors for anything else),
// and the project's templates (supabase/templates, referenced from supabase/config.toml with
// the Supabase CLI's keys) in all ten languages, checked by the CLI's own config loader.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { readSupabaseConfig, repoRoot } from "../src/config.ts";
import { parseTemplate, TemplateError } from "../src/auth/gotemplate.ts";
import { htmlToText, loadMailTemplates, TEMPLATE_KINDS, type MailData } from "../src/auth/templates.ts";

describe("Go template subset", () => {
  const run = (src: string, data: Record<string, unknown>) => parseTemplate("t", src).execute(data);

  it("prints values escaped, missing ones as nothing, and nested map keys", () => {
    expect(run(`<a href="{{ .ConfirmationURL }}">{{.Email}}</a>`, { ConfirmationURL: "http://x/verify?a=1&b=2", Email: `"o'hara"<b>` })).toBe(
      `<a href="http://x/verify?a=1&amp;b=2">&#34;o&#39;hara&#34;&lt;b&gt;</a>`,
    );
    expect(run("[{{ .Missing }}][{{ .Data.locale }}][{{ .Data.a.b }}]", { Data: { locale: "de", a: { b: 2 } } })).toBe("[][de][2]");
    expect(run("[{{ .Data.locale }}]", {})).toBe("[]");
  });

  it("chooses branches with if / else if / else and eq, ne, not, and, or", () => {
    const src = `{{ if eq .Data.locale "de" }}Sie{{ else if eq .Data.locale "cn" "zh" }}您{{ else if not .Data.locale }}none{{ else }}other{{ end }}`;
    expect(run(src, { Data: { locale: "de" } })).toBe("Sie");
    expect(run(src, { Data: { locale: "zh" } })).toBe("您");
    expect(run(src, { Data: {} })).toBe("none"); // eq on a missing value is false, not an error
    expect(run(src, { Data: { locale: "xx" } })).toBe("other");
    // Two present values of different kinds cannot be compared, as in Go (hosted Supabase then fails the
    // e-mail); `print` makes any value a string first, which is why the project's templates use it.
    expect(() => run(src, { Data: { locale: 7 } })).toThrow(/incompatible types for comparison/);
    expect(run(`{{ if eq (print .Data.locale) "7" }}seven{{ end }}|{{ print .Data.locale }}|{{ print .A .B "x" .A }}`, { Data: {}, A: 1, B: 2 })).toBe("|&lt;nil&gt;|1 2x1");
    expect(run(`{{ if and .A (ne .B "x") }}yes{{ else }}no{{ end }}`, { A: 1, B: "y" })).toBe("yes");
    expect(run(`{{ if or .A .B }}yes{{ else }}no{{ end }}`, { A: "", B: 0 })).toBe("no");
    expect(run(`{{ if .Email }}{{ if .NewEmail }}both{{ end }}{{ end }}`, { Email: "a", NewEmail: "b" })).toBe("both");
  });

  it("trims around {{- and -}} and drops comments", () => {
    expect(run("a  \n {{- .X -}} \n  b{{/* note */}}c\n{{- /* trimmed */ -}}\nd", { X: 1 })).toBe("a1bcd");
  });

  it("refuses what it does not implement, naming the template", () => {
    expect(() => parseTemplate("invite body", "{{ range .Items }}x{{ end }}")).toThrow(/invite body: \{\{range\}\} is not supported/);
    expect(() => parseTemplate("t", "{{ printf .X }}")).toThrow(/function "printf" not defined/);
    expect(() => parseTemplate("t", "{{ if .X }}open")).toThrow(/missing \{\{end\}\}/);
    expect(() => parseTemplate("t", "{{ end }}")).toThrow(TemplateError);
    expect(() => parseTemplate("t", "{{ .X ")).toThrow(/unclosed action/);
    expect(() => parseTemplate("t", "{{ ne .A .B .C }}")).toThrow(/wrong number of arguments/);
  });
});

describe("the project's auth e-mails", () => {
  const config = readSupabaseConfig(repoRoot);
  const templates = loadMailTemplates(config.auth ?? {}, repoRoot, {
    warn: (m: string) => { throw new Error(`template warning: ${m}`); },
  } as never);
  const data = (locale: unknown, extra: Partial<MailData> = {}): MailData => ({
    SiteURL: "http://127.0.0.1:3000", ConfirmationURL: "http://127.0.0.1:54321/auth/v1/verify?token=abc&type=signup&redirect_to=http%3A%2F%2F127.0.0.1%3A3000",
    Email: "ada@example.test", NewEmail: "ada@new.example", Token: "123456", TokenHash: "abc", RedirectTo: "http://127.0.0.1:3000",
    Data: locale === undefined ? {} : { locale }, ...extra,
  });

  it("references a template with subject and content_path for every type the CLI knows", () => {
    const configured = ((config.auth?.email as Record<string, unknown>).template ?? {}) as Record<string, { subject?: string; content_path?: string }>;
    expect(Object.keys(configured).sort()).toEqual([...TEMPLATE_KINDS].sort());
    for (const kind of TEMPLATE_KINDS) {
      expect(configured[kind]!.subject, kind).toBeTruthy();
      expect(configured[kind]!.content_path).toBe(`./supabase/templates/${kind}.html`);
      expect(fs.existsSync(path.join(repoRoot, configured[kind]!.content_path!))).toBe(true);
    }
  });

  it("renders every type in the ten languages, English for anything else", () => {
    const confirmation: Record<string, string> = {
      en: "Confirm your signup", de: "Bestätigen Sie Ihre Registrierung", es: "Confirma tu registro", fr: "Confirmez votre inscription",
      it: "Conferma la tua registrazione", jp: "登録を確認してください", cn: "确认您的注册", el: "Επιβεβαιώστε την εγγραφή σας",
      pl: "Potwierdź rejestrację", nl: "Bevestig je registratie",
    };
    for (const [locale, subject] of Object.entries(confirmation)) {
      const m = templates.render("confirmation", data(locale));
      expect(m.subject, locale).toBe(subject);
      expect(m.html).toContain(`<h2>${subject}</h2>`);
      expect(m.html).toContain(`lang="${locale === "jp" ? "ja" : locale === "cn" ? "zh" : locale}"`);
      // The link carries the token hash in the fragment to the page that asked (verified there, on any device).
      expect(m.html).toContain('href="http://127.0.0.1:3000#token_hash=abc&type=signup"');
      expect(m.html).toContain("<strong>123456</strong>");
      expect(m.text).toContain("http://127.0.0.1:3000#token_hash=abc&type=signup");
      expect(m.text).not.toMatch(/<|&amp;/);
    }
    for (const other of [undefined, "xx-YY", "", 7, ["de"], { de: true }]) expect(templates.render("confirmation", data(other)).subject).toBe("Confirm your signup");
    // Every type has its own text in every language: ten different subjects each.
    for (const kind of TEMPLATE_KINDS) {
      const subjects = new Set(Object.keys(confirmation).map((l) => templates.render(kind, data(l)).subject));
      expect(subjects.size, kind).toBe(10);
      // A code only where a screen takes it (sign-up, password reset; reauthentication is a code).
      const rendered = templates.render(kind, data("en"));
      if (["confirmation", "recovery", "reauthentication"].includes(kind)) expect(rendered.html, kind).toContain("123456");
      else expect(rendered.html, kind).not.toContain("123456");
    }
  });

  it("keeps the formal German and the polite Chinese", () => {
    for (const kind of TEMPLATE_KINDS) {
      const de = templates.render(kind, data("de"));
      expect(`${de.subject} ${de.text}`, kind).toMatch(/\b(Sie|Ihr|Ihre|Ihren)\b/);
      expect(`${de.subject} ${de.text}`, kind).not.toMatch(/\b(du|dein|deine|dich)\b/i);
      expect(templates.render(kind, data("cn")).text, kind).toContain("您");
    }
  });

  it("names both addresses in an email change, and only the new one for an anonymous user", () => {
    const change = templates.render("email_change", data("en"));
    expect(change.text).toContain("from ada@example.test to ada@new.example");
    const anon = templates.render("email_change", data("en", { Email: "" }));
    expect(anon.text).not.toContain(" from ");
    expect(anon.text).toContain("Follow this link to confirm your email address");
  });

  it("falls back to a default e-mail, with a warning, when a template cannot be read", () => {
    const warnings: string[] = [];
    const t = loadMailTemplates({ email: { template: { recovery: { subject: "S {{ .Email }}", content_path: "./nope.html" }, invite: { content_path: "./supabase/templates/invite.html", subject: "{{ bad }}" } } } }, repoRoot, {
      warn: (m: string) => warnings.push(m),
    } as never);
    expect(t.render("recovery", data("de")).subject).toBe("S ada@example.test");
    expect(t.render("recovery", data("de")).html).toContain("Reset the password");
    expect(t.render("invite", data("de")).subject).toBe("You are invited");
    expect(warnings.join("\n")).toMatch(/recovery: cannot read .*nope\.html/);
    expect(warnings.join("\n")).toMatch(/invite: template invite subject: function "bad" not defined/);
  });

  it("turns HTML into a readable text part", () => {
    expect(htmlToText('<!doctype html><h2>Hi &amp; bye</h2>\n<p>Go: <a href="http://x/?a=1&amp;b=2">there</a></p><p>x</p>')).toBe("Hi & bye\n\nGo: there: http://x/?a=1&b=2\nx\n");
  });

  it("passes the Supabase CLI's own config check", async () => {
    const cli = path.join(repoRoot, "node_modules", ".bin", "supabase");
    // The CLI loads and validates config.toml (template paths included) before it connects;
    // nothing listens on port 1, so it stops right after.
    const out = await promisify(execFile)(cli, ["db", "push", "--db-url", "postgresql://x:y@127.0.0.1:1/postgres", "--dry-run"], { cwd: repoRoot, timeout: 60_000 })
      .then((r) => r.stdout + r.stderr, (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ""}${e.stderr ?? ""}`);
    expect(out).not.toMatch(/Invalid config/);
    expect(out).toMatch(/failed to connect/);
  }, 90_000);
});
