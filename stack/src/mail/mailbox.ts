// The dev mailbox: messages kept in memory and as one JSON file each under
// <dataDir>/mail, so they survive a restart of the stack (as Inbucket keeps them).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface MailMessage {
  id: string;
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  from?: string;
}

const MAX_KEPT = 2000;

export class Mailbox {
  private messages: MailMessage[] = [];

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) {
      if (!f.endsWith(".json")) continue;
      try {
        this.messages.push(JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as MailMessage);
      } catch {
        /* a half-written file from a killed stack: skip it */
      }
    }
    this.messages.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  store(mail: OutgoingMail, from: string): MailMessage {
    const msg: MailMessage = {
      id: `${Date.now().toString(36)}-${crypto.randomBytes(6).toString("hex")}`,
      to: mail.to.trim().toLowerCase(),
      from,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      created_at: new Date().toISOString(),
    };
    this.messages.push(msg);
    fs.writeFileSync(path.join(this.dir, `${msg.id}.json`), JSON.stringify(msg));
    while (this.messages.length > MAX_KEPT) this.remove(this.messages[0]!.id);
    return msg;
  }

  /** Newest first, optionally only those sent to one address. */
  list(to?: string | null): MailMessage[] {
    const want = to?.trim().toLowerCase();
    return this.messages.filter((m) => !want || m.to === want).reverse();
  }

  get(id: string): MailMessage | undefined {
    return this.messages.find((m) => m.id === id);
  }

  remove(id: string) {
    this.messages = this.messages.filter((m) => m.id !== id);
    if (/^[a-z0-9-]+$/.test(id)) fs.rmSync(path.join(this.dir, `${id}.json`), { force: true });
  }

  clear(to?: string | null): number {
    const victims = this.list(to);
    for (const m of victims) this.remove(m.id);
    return victims.length;
  }
}
