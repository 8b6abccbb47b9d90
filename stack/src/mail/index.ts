// The mail service: sends through SMTP (nodemailer) when SMTP_HOST is set, and
// otherwise keeps every message in the dev mailbox served at /mail. The mailbox also
// listens for SMTP on 127.0.0.1 (smtp.ts), so the edge functions' own e-mails land there.
import path from "node:path";
import nodemailer from "nodemailer";
import { parseSize } from "../config.ts";
import { HttpError, sendJson } from "../http.ts";
import type { GatewayRequest, Service, ServiceContext } from "../service.ts";
import { Mailbox, type MailMessage, type OutgoingMail } from "./mailbox.ts";
import { listPage, messagePage } from "./pages.ts";
import { startSmtpDoor } from "./smtp.ts";

export type { MailMessage, OutgoingMail } from "./mailbox.ts";

export interface MailService extends Service {
  /** Sends a message (SMTP or mailbox); resolves with the stored message id in mailbox mode. */
  sendMail(mail: OutgoingMail): Promise<{ id: string }>;
  /** True when messages go to a real SMTP server. */
  readonly usesSmtp: boolean;
  /** The port on 127.0.0.1 where the mailbox receives SMTP (plain, no authentication needed). */
  readonly smtpPort: number;
}

function html(res: GatewayRequest["res"], status: number, body: string) {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src * data:; frame-src 'self'",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}

export async function createService(ctx: ServiceContext): Promise<MailService> {
  const mailbox = new Mailbox(path.join(ctx.options.dataDir, "mail"));
  const sender = process.env.SMTP_SENDER || "Parley <noreply@parley.local>";
  const smtpHost = process.env.SMTP_HOST;
  const transport = smtpHost
    ? nodemailer.createTransport({
        host: smtpHost,
        port: Number(process.env.SMTP_PORT || 587),
        secure: Number(process.env.SMTP_PORT) === 465,
        auth: process.env.SMTP_USER ? { user: process.env.SMTP_USER, pass: process.env.SMTP_PASS ?? "" } : undefined,
      })
    : null;
  const log = ctx.log.child("mail");
  const door = await startSmtpDoor({
    port: ctx.options.smtpPort ?? 0,
    maxBytes: parseSize(process.env.PARLEY_MAIL_SMTP_MAX_SIZE, 10 * 1024 * 1024),
    mailbox,
    log,
  });

  async function sendMail(mail: OutgoingMail): Promise<{ id: string }> {
    if (transport) {
      const info = await transport.sendMail({ from: mail.from ?? sender, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
      return { id: String(info.messageId) };
    }
    const msg = mailbox.store(mail, mail.from ?? sender);
    log.debug("mail stored", { to: msg.to, subject: msg.subject });
    return { id: msg.id };
  }

  async function handle(r: GatewayRequest) {
    const { req, res } = r;
    r.req.resume();
    const decode = (v: string) => {
      try {
        return decodeURIComponent(v);
      } catch {
        throw new HttpError(404, "not_found", "No such message");
      }
    };
    try {
      const p = r.path.replace(/\/+$/, "") || "/";
      const method = req.method ?? "GET";
      if (p === "/api/messages") {
        if (method === "GET") return sendJson(res, 200, mailbox.list(r.query.get("to")).map(publicView));
        if (method === "DELETE") return sendJson(res, 200, { deleted: mailbox.clear(r.query.get("to")) });
      }
      const one = /^\/api\/messages\/([^/]+)$/.exec(p);
      if (one) {
        const m = mailbox.get(decode(one[1]!));
        if (!m) throw new HttpError(404, "not_found", "No such message");
        if (method === "GET") return sendJson(res, 200, publicView(m));
        if (method === "DELETE") {
          mailbox.remove(m.id);
          return sendJson(res, 200, { deleted: 1 });
        }
      }
      if (method === "GET" && p === "/") return html(res, 200, listPage(mailbox.list(r.query.get("to")), r.query.get("to")));
      const view = /^\/m\/([^/]+)$/.exec(p);
      if (method === "GET" && view) {
        const m = /^[A-Za-z0-9%-]+$/.test(view[1]!) ? mailbox.get(decode(view[1]!)) : undefined;
        if (!m) return html(res, 404, listPage([], null).replace("<h1>Mailbox</h1>", "<h1>Message not found</h1>"));
        return html(res, 200, messagePage(m));
      }
      throw new HttpError(404, "not_found", "Not found");
    } catch (e) {
      if (e instanceof HttpError) return sendJson(res, e.status, { code: e.code, message: e.message });
      throw e;
    }
  }

  return {
    handle,
    sendMail,
    usesSmtp: !!transport,
    smtpPort: door.port,
    async stop() {
      transport?.close();
      await door.close();
    },
  };
}

function publicView(m: MailMessage) {
  return { id: m.id, to: m.to, from: m.from, subject: m.subject, html: m.html, text: m.text, created_at: m.created_at };
}
