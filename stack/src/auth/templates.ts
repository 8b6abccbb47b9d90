// The e-mails auth sends, read the way Supabase Auth (GoTrue) reads them: per type a
// subject and a body template from config.toml ([auth.email.template.<type>] subject and
// content_path, the path relative to the project root as the Supabase CLI resolves it),
// rendered with GoTrue's variables (ConfirmationURL, Token, TokenHash, SiteURL, RedirectTo,
// Email, NewEmail, SendingTo, Data = user_metadata). The project's templates live in
// supabase/templates and choose among the ten languages by `.Data.locale`, so hosted
// Supabase sends the same e-mails. A type without a template, or one that cannot be read
// or parsed, gets GoTrue's default (as GoTrue falls back), with a warning in the log.
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../log.ts";
import { parseTemplate, type Template } from "./gotemplate.ts";

export const TEMPLATE_KINDS = ["invite", "confirmation", "recovery", "magic_link", "email_change", "reauthentication"] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Plain English e-mails for types the project does not configure (GoTrue has defaults too). */
const link = (text: string, action: string) =>
  `<p>${text}</p>\n<p><a href="{{ .ConfirmationURL }}">${action}</a></p>\n<p>Code: {{ .Token }}</p>`;
const DEFAULTS: Record<TemplateKind, { subject: string; body: string }> = {
  invite: { subject: "You are invited", body: link("You are invited to create an account on {{ .SiteURL }}.", "Accept the invitation") },
  confirmation: { subject: "Confirm your email address", body: link("Confirm your email address to finish signing up.", "Confirm") },
  recovery: { subject: "Reset your password", body: link("Choose a new password for your account.", "Reset the password") },
  magic_link: { subject: "Your sign-in link", body: link("Sign in with this link; it works once.", "Sign in") },
  email_change: { subject: "Confirm your new email address", body: link("Confirm {{ .NewEmail }} as your new email address.", "Confirm") },
  reauthentication: { subject: "Your verification code", body: "<p>Your verification code: {{ .Token }}</p>" },
};

/** GoTrue's template data for one e-mail. */
export interface MailData {
  SiteURL: string;
  ConfirmationURL?: string;
  Email: string;
  NewEmail?: string;
  SendingTo?: string;
  Token: string;
  TokenHash?: string;
  RedirectTo?: string;
  Data: Record<string, unknown>;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export interface MailTemplates {
  render(kind: TemplateKind, data: MailData): RenderedMail;
}

type Table = Record<string, unknown>;

/** Reads [auth.email.template.*] of the auth config; `projectRoot` is the folder holding supabase/. */
export function loadMailTemplates(auth: Table, projectRoot: string, log?: Logger): MailTemplates {
  const configured = (((auth.email as Table | undefined)?.template ?? {}) as Record<string, Table>);
  const compiled = new Map<TemplateKind, { subject: Template; body: Template }>();
  for (const kind of TEMPLATE_KINDS) {
    const t = configured[kind] ?? {};
    const subjectSrc = typeof t.subject === "string" && t.subject ? t.subject : DEFAULTS[kind].subject;
    let bodySrc = DEFAULTS[kind].body;
    if (typeof t.content_path === "string" && t.content_path) {
      const file = path.resolve(projectRoot, t.content_path);
      try {
        bodySrc = fs.readFileSync(file, "utf8");
      } catch (e) {
        log?.warn(`auth.email.template.${kind}: cannot read ${file} (${(e as Error).message}); using the default e-mail`);
      }
    }
    try {
      compiled.set(kind, { subject: parseTemplate(`${kind} subject`, subjectSrc), body: parseTemplate(`${kind} body`, bodySrc) });
    } catch (e) {
      log?.warn(`auth.email.template.${kind}: ${(e as Error).message}; using the default e-mail`);
      compiled.set(kind, { subject: parseTemplate(`${kind} subject`, DEFAULTS[kind].subject), body: parseTemplate(`${kind} body`, DEFAULTS[kind].body) });
    }
  }
  return {
    render(kind, data) {
      const t = compiled.get(kind)!;
      const values = { ...data } as unknown as Record<string, unknown>;
      // The subject is one line whatever the template's layout.
      const subject = decodeEntities(t.subject.execute(values)).replace(/\s+/g, " ").trim();
      const html = t.body.execute(values);
      return { subject, html, text: htmlToText(html) };
    },
  };
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#34": '"', "#39": "'", apos: "'", nbsp: " " };

function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, name: string) => {
    if (ENTITIES[name.toLowerCase()] !== undefined) return ENTITIES[name.toLowerCase()]!;
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return m;
  });
}

/** The plain-text part: links as "label: URL", blocks on their own lines, no markup. */
export function htmlToText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[^]*?-->|<!doctype[^>]*>|<(style|script|head)\b[^]*?<\/\1>/gi, "")
      .replace(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([^]*?)<\/a>/gi, (_m, href: string, label: string) => `${label.replace(/<[^>]+>/g, "").trim()}: ${href}`)
      .replace(/<br\s*\/?>|<\/(p|h[1-6]|div|li|tr)>/gi, "\n")
      .replace(/<[^>]+>/g, ""),
  )
    .split("\n")
    .map((l) => l.replace(/[ \t]+/g, " ").trim())
    .filter((l, i, all) => l || (i > 0 && all[i - 1]))
    .join("\n")
    .trim() + "\n";
}
