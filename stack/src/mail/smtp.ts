// The mailbox's SMTP door (as Inbucket's and Mailpit's): an SMTP server on 127.0.0.1 that
// keeps every message it receives in the dev mailbox, one copy per envelope recipient, so
// anything that speaks SMTP (the edge functions' _shared/mail.ts) can be tested end to end.
// Loopback only, no TLS, no authentication needed (AUTH is accepted with any credentials,
// for clients configured with a user), messages up to a size limit.
import net from "node:net";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Logger } from "../log.ts";
import type { Mailbox } from "./mailbox.ts";

export interface SmtpDoor {
  port: number;
  close(): Promise<void>;
}

export interface SmtpDoorOptions {
  /** 0: a free port. */
  port: number;
  /** Largest message accepted, in bytes; larger ones are refused with 552. */
  maxBytes: number;
  /** Most recipients one message may have. */
  maxRecipients?: number;
  mailbox: Mailbox;
  log: Logger;
}

function isLoopback(address: string): boolean {
  const a = address.replace(/^::ffff:/, "");
  return a === "::1" || (net.isIPv4(a) && a.startsWith("127."));
}

/** `Name <address>` as the mailbox shows senders (auth's own are stored so). */
function addressText(v: AddressObject | AddressObject[] | undefined): string {
  if (!v) return "";
  return (Array.isArray(v) ? v : [v])
    .flatMap((a) => a.value)
    .map((a) => (a.name ? `${a.name} <${a.address ?? ""}>` : (a.address ?? "")))
    .join(", ");
}

export async function startSmtpDoor(o: SmtpDoorOptions): Promise<SmtpDoor> {
  const maxRecipients = o.maxRecipients ?? 100;
  const server = new SMTPServer({
    name: "parley-mailbox",
    banner: "Parley dev mailbox",
    logger: false,
    secure: false,
    disabledCommands: ["STARTTLS"],
    hideSTARTTLS: true,
    authOptional: true,
    allowInsecureAuth: true,
    disableReverseLookup: true,
    size: o.maxBytes,
    rejectOversized: true,
    maxClients: 50,
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    onConnect(session, cb) {
      if (!isLoopback(session.remoteAddress)) return cb(new Error("Only local clients may send to the dev mailbox"));
      cb();
    },
    onAuth(_auth, _session, cb) {
      cb(null, { user: "mailbox" });
    },
    onRcptTo(_address, session, cb) {
      if (session.envelope.rcptTo.length >= maxRecipients) {
        const err = new Error(`Too many recipients (at most ${maxRecipients})`) as Error & { responseCode: number };
        err.responseCode = 452;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream, { skipImageLinks: true, skipTextToHtml: true })
        .then((parsed) => {
          if ((stream as { sizeExceeded?: boolean }).sizeExceeded) {
            const err = new Error("Message exceeds fixed maximum message size") as Error & { responseCode: number };
            err.responseCode = 552;
            return cb(err);
          }
          const from = addressText(parsed.from) || (session.envelope.mailFrom ? session.envelope.mailFrom.address : "");
          const recipients = [...new Set(session.envelope.rcptTo.map((r) => r.address.trim().toLowerCase()))];
          for (const to of recipients) {
            o.mailbox.store(
              { to, subject: parsed.subject ?? "", html: typeof parsed.html === "string" ? parsed.html : "", text: parsed.text ?? "" },
              from,
            );
          }
          o.log.debug("mail received over SMTP", { to: recipients, subject: parsed.subject });
          cb();
        })
        .catch((e: unknown) => {
          o.log.warn(`SMTP message not stored: ${(e as Error).message}`);
          const err = new Error("The message could not be read") as Error & { responseCode: number };
          err.responseCode = 554;
          cb(err);
        });
    },
  });
  server.on("error", (e) => o.log.warn(`SMTP: ${e.message}`));
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(new Error(`The dev mailbox's SMTP port ${o.port} is not free: ${e.message}`));
    server.server.once("error", onError);
    server.listen(o.port, "127.0.0.1", () => {
      server.server.off("error", onError);
      resolve();
    });
  });
  const port = (server.server.address() as net.AddressInfo).port;
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
