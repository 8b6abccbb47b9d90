// The dev mailbox's SMTP door: a message sent over SMTP (nodemailer, as the edge functions'
// _shared/mail.ts sends) lands in the mailbox /mail/api/messages serves, once per recipient;
// the functions are pointed at it; oversized messages and too many recipients are refused.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/log.ts";
import { Mailbox } from "../src/mail/mailbox.ts";
import { startSmtpDoor } from "../src/mail/smtp.ts";
import { userFunctionsSmtp } from "../src/stack.ts";
import { createUser, stackInfo, userClient } from "./helpers.ts";

const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.test`;
const transport = (port: number) => nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });

describe("the mailbox's SMTP door", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("keeps a message sent over SMTP in the mailbox, one copy per recipient", async () => {
    const s = stackInfo();
    const [a, b] = [uniqueEmail("smtp-a"), uniqueEmail("smtp-b")];
    const t = transport(s.smtpPort);
    await t.sendMail({
      from: "Parley <noreply@parley.local>",
      to: [a, b.toUpperCase()],
      subject: "Endpoint disabled — Grüße",
      text: "Your endpoint https://hooks.example.test/x was disabled.",
      html: '<p>Your endpoint was disabled. <a href="http://127.0.0.1:3000/app/bots/1/webhooks">Webhooks</a></p>',
    });
    t.close();
    for (const to of [a, b]) {
      const mails = (await (await fetch(`${s.apiUrl}/mail/api/messages?to=${encodeURIComponent(to)}`)).json()) as { to: string; from: string; subject: string; text: string; html: string }[];
      expect(mails).toHaveLength(1);
      expect(mails[0]!).toMatchObject({ to, from: "Parley <noreply@parley.local>", subject: "Endpoint disabled — Grüße" });
      expect(mails[0]!.text.trim()).toBe("Your endpoint https://hooks.example.test/x was disabled.");
      expect(mails[0]!.html).toContain('href="http://127.0.0.1:3000/app/bots/1/webhooks"');
    }
  });

  it("is given to the edge functions as their SMTP server", async () => {
    const client = await userClient(await createUser());
    const { data, error } = await client.functions.invoke("echo", { body: {} });
    expect(error).toBeNull();
    expect(data.smtp).toEqual(["127.0.0.1", String(stackInfo().smtpPort), "1"]);
  });

  it("leaves the functions' SMTP to the user when they configured one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-smtp-env-"));
    dirs.push(dir);
    const saved = process.env.PARLEY_SMTP_HOST;
    delete process.env.PARLEY_SMTP_HOST;
    try {
      expect(userFunctionsSmtp(dir, undefined)).toBe(false);
      expect(userFunctionsSmtp(dir, { PARLEY_SMTP_HOST: "smtp.example.test" })).toBe(true);
      fs.writeFileSync(path.join(dir, ".env"), "# PARLEY_SMTP_HOST=commented\nPARLEY_SMTP_PORT=2525\n");
      expect(userFunctionsSmtp(dir, undefined)).toBe(false);
      fs.writeFileSync(path.join(dir, ".env"), "OTHER=1\nPARLEY_SMTP_HOST=smtp.example.test\n");
      expect(userFunctionsSmtp(dir, undefined)).toBe(true);
      fs.rmSync(path.join(dir, ".env"));
      process.env.PARLEY_SMTP_HOST = "smtp.example.test";
      expect(userFunctionsSmtp(dir, undefined)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.PARLEY_SMTP_HOST;
      else process.env.PARLEY_SMTP_HOST = saved;
    }
  });

  it("refuses messages over the size limit (nothing stored) and recipients beyond the limit (the others get it)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-smtp-door-"));
    dirs.push(dir);
    const mailbox = new Mailbox(dir);
    const door = await startSmtpDoor({ port: 0, maxBytes: 2000, maxRecipients: 2, mailbox, log: createLogger("smtp-test", true) });
    try {
      const t = transport(door.port);
      await expect(t.sendMail({ from: "a@example.test", to: "big@example.test", subject: "big", text: "x".repeat(5000) })).rejects.toThrow(/552|size/i);
      const many = await t.sendMail({ from: "a@example.test", to: ["r1@example.test", "r2@example.test", "r3@example.test"], subject: "many", text: "x" });
      expect(many.rejected).toEqual(["r3@example.test"]);
      await t.sendMail({ from: "a@example.test", to: "small@example.test", subject: "small", text: "fits" });
      t.close();
      expect(mailbox.list().map((m) => [m.to, m.subject]).reverse()).toEqual([["r1@example.test", "many"], ["r2@example.test", "many"], ["small@example.test", "small"]]);
    } finally {
      await door.close();
    }
  });
});
