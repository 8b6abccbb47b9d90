// The mail service with SMTP_HOST set: messages go out over SMTP (nodemailer) to a
// local SMTP server speaking the real protocol, with AUTH, and not to the mailbox.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService } from "../src/mail/index.ts";
import { createLogger } from "../src/log.ts";
import type { ServiceContext } from "../src/service.ts";

interface Received { from: string; to: string[]; data: string; auth: string }

/** Just enough of RFC 5321 for a client: EHLO, AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, QUIT. */
function startSmtp(received: Received[]): Promise<net.Server> {
  const server = net.createServer((sock) => {
    let buf = "";
    let inData = false;
    let cur: Received = { from: "", to: [], data: "", auth: "" };
    let loginStep = 0;
    sock.write("220 localhost ESMTP test\r\n");
    sock.on("data", (chunk) => {
      buf += chunk.toString("utf8");
      let i: number;
      while ((i = buf.indexOf("\r\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            received.push(cur);
            cur = { from: "", to: [], data: "", auth: cur.auth };
            sock.write("250 2.0.0 Ok: queued\r\n");
          } else cur.data += line.replace(/^\.\./, ".") + "\n";
          continue;
        }
        if (loginStep === 1) { cur.auth = Buffer.from(line, "base64").toString(); loginStep = 2; sock.write("334 UGFzc3dvcmQ6\r\n"); continue; }
        if (loginStep === 2) { cur.auth = `\0${cur.auth}\0${Buffer.from(line, "base64").toString()}`; loginStep = 0; sock.write("235 2.7.0 Authentication successful\r\n"); continue; }
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO") sock.write("250-localhost\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n");
        else if (verb === "HELO") sock.write("250 localhost\r\n");
        else if (verb === "AUTH" && /^AUTH PLAIN /i.test(line)) { cur.auth = Buffer.from(line.slice(11), "base64").toString(); sock.write("235 2.7.0 Authentication successful\r\n"); }
        else if (verb === "AUTH" && /^AUTH LOGIN/i.test(line)) { loginStep = 1; sock.write("334 VXNlcm5hbWU6\r\n"); }
        else if (verb === "MAIL") { cur.from = /<([^>]*)>/.exec(line)?.[1] ?? ""; sock.write("250 2.1.0 Ok\r\n"); }
        else if (verb === "RCPT") { cur.to.push(/<([^>]*)>/.exec(line)?.[1] ?? ""); sock.write("250 2.1.5 Ok\r\n"); }
        else if (verb === "DATA") { inData = true; sock.write("354 End data with <CR><LF>.<CR><LF>\r\n"); }
        else if (verb === "QUIT") { sock.write("221 2.0.0 Bye\r\n"); sock.end(); }
        else sock.write("250 Ok\r\n");
      }
    });
    sock.on("error", () => {});
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("mail over SMTP", () => {
  const received: Received[] = [];
  let server: net.Server;
  let dataDir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = await startSmtp(received);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-smtp-"));
  });
  afterAll(() => {
    for (const k of ["SMTP_HOST", "SMTP_PORT", "SMTP_USER", "SMTP_PASS", "SMTP_SENDER"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends through the configured server with credentials and sender, and keeps nothing in the mailbox", async () => {
    process.env.SMTP_HOST = "127.0.0.1";
    process.env.SMTP_PORT = String((server.address() as net.AddressInfo).port);
    process.env.SMTP_USER = "mailer";
    process.env.SMTP_PASS = "s3cret";
    process.env.SMTP_SENDER = "Parley <hello@parley.test>";
    const ctx = { options: { dataDir }, log: createLogger("mail-test", true) } as unknown as ServiceContext;
    const mail = await createService(ctx);
    expect(mail.usesSmtp).toBe(true);
    const { id } = await mail.sendMail({ to: "reader@example.test", subject: "Grüße über SMTP", html: "<p>Hallo <b>Welt</b></p>", text: "Hallo Welt" });
    expect(id).toBeTruthy();
    await mail.stop?.();
    expect(received).toHaveLength(1);
    const m = received[0]!;
    expect(m.auth).toBe("\0mailer\0s3cret");
    expect(m.from).toBe("hello@parley.test");
    expect(m.to).toEqual(["reader@example.test"]);
    expect(m.data).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(m.data).toContain("Hallo Welt");
    expect(m.data).toMatch(/Content-Type: text\/html/i);
    expect(fs.readdirSync(path.join(dataDir, "mail"))).toEqual([]);
  });
});
