// _shared/mail.ts against a small SMTP server on 127.0.0.1 that speaks enough of RFC 5321
// (EHLO, MAIL, RCPT, DATA, QUIT) to receive what nodemailer sends.
import assert from "node:assert/strict";
import { sendMail } from "./mail.ts";

function smtpServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const messages: { from: string; to: string[]; data: string }[] = [];
  const enc = new TextEncoder();
  const serve = async (conn: Deno.Conn) => {
    const say = (s: string) => conn.write(enc.encode(s + "\r\n"));
    await say("220 test ESMTP");
    let buf = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    const dec = new TextDecoder();
    const chunk = new Uint8Array(65536);
    for (;;) {
      const n = await conn.read(chunk);
      if (n === null) break;
      buf += dec.decode(chunk.subarray(0, n));
      for (;;) {
        if (inData) {
          const end = buf.indexOf("\r\n.\r\n");
          if (end < 0) break;
          current.data = buf.slice(0, end);
          buf = buf.slice(end + 5);
          messages.push(current);
          current = { from: "", to: [], data: "" };
          inData = false;
          await say("250 queued");
          continue;
        }
        const eol = buf.indexOf("\r\n");
        if (eol < 0) break;
        const line = buf.slice(0, eol);
        buf = buf.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") await say("250 test");
        else if (verb === "MAIL") {
          current.from = line;
          await say("250 ok");
        } else if (verb === "RCPT") {
          current.to.push(line);
          await say("250 ok");
        } else if (verb === "DATA") {
          inData = true;
          await say("354 go ahead");
        }
        else if (verb === "QUIT") {
          await say("221 bye");
          conn.close();
          return;
        } else await say("250 ok");
      }
    }
    conn.close();
  };
  (async () => {
    for await (const conn of listener) serve(conn).catch(() => {});
  })();
  return { port: (listener.addr as Deno.NetAddr).port, messages, close: () => listener.close() };
}

Deno.test("sendMail sends one message per recipient through SMTP; without SMTP it says it skipped", async () => {
  const smtp = smtpServer();
  const saved = ["PARLEY_SMTP_HOST", "PARLEY_SMTP_PORT", "PARLEY_SMTP_INSECURE"].map((k) => [k, Deno.env.get(k)] as const);
  try {
    Deno.env.delete("PARLEY_SMTP_HOST");
    assert.deepEqual(await sendMail({ to: ["a@example.com"], subject: "x", text: "y" }), { sent: 0, skipped: "mail_not_configured" });
    Deno.env.set("PARLEY_SMTP_HOST", "127.0.0.1");
    Deno.env.set("PARLEY_SMTP_PORT", String(smtp.port));
    Deno.env.set("PARLEY_SMTP_INSECURE", "1");
    assert.deepEqual(await sendMail({ to: [], subject: "x", text: "y" }), { sent: 0, skipped: "no_recipients" });
    const r = await sendMail({ to: ["owner@example.com", "admin@example.com", "owner@example.com"], subject: "Endpoint disabled", text: "Hello" });
    assert.deepEqual(r, { sent: 2 });
    assert.equal(smtp.messages.length, 2);
    assert.match(smtp.messages[0].to[0], /owner@example\.com/);
    assert.match(smtp.messages[1].to[0], /admin@example\.com/);
    assert.match(smtp.messages[0].data, /Subject: Endpoint disabled/);
    assert.match(smtp.messages[0].data, /Hello/);
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
    smtp.close();
  }
});
