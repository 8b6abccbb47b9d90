// Mail that is not an auth e-mail (a disabled webhook endpoint, a task's digest or answer).
// Auth's own mails (invites, sign-in links) go through auth (see team-invite); these go
// through SMTP, configured for the functions with PARLEY_SMTP_HOST, PARLEY_SMTP_PORT (587;
// 465 means TLS), PARLEY_SMTP_USER, PARLEY_SMTP_PASS, PARLEY_SMTP_SENDER (default
// "Parley <noreply@parley.local>"). Without PARLEY_SMTP_HOST nothing is sent and the answer
// says so ({ sent: 0, skipped: "mail_not_configured" }), which callers record.
// The local stack (stack/) sets PARLEY_SMTP_HOST/PORT/INSECURE to its dev mailbox's SMTP door
// unless the user set PARLEY_SMTP_HOST, so there the mail lands in /mail/api/messages.
// Read per call, so a test may point it at its own SMTP server.
import nodemailer from "npm:nodemailer@10.6.0";

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

export interface MailResult {
  sent: number;
  skipped?: "mail_not_configured" | "no_recipients";
}

/** Whether the functions have an SMTP server to send through (PARLEY_SMTP_HOST). */
export function mailConfigured(): boolean {
  return !!Deno.env.get("PARLEY_SMTP_HOST");
}

export async function sendMail(mail: Mail): Promise<MailResult> {
  const to = [...new Set(mail.to.filter((a) => a.includes("@")))];
  if (to.length === 0) return { sent: 0, skipped: "no_recipients" };
  const host = Deno.env.get("PARLEY_SMTP_HOST");
  if (!host) return { sent: 0, skipped: "mail_not_configured" };
  const port = Number(Deno.env.get("PARLEY_SMTP_PORT") ?? 587);
  const user = Deno.env.get("PARLEY_SMTP_USER");
  const transport = nodemailer.createTransport({
    host,
    port,
    secure: port === 465,
    ignoreTLS: Deno.env.get("PARLEY_SMTP_INSECURE") === "1",
    auth: user ? { user, pass: Deno.env.get("PARLEY_SMTP_PASS") ?? "" } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    // One message per recipient: recipients never see each other's addresses.
    for (const address of to) {
      await transport.sendMail({
        from: Deno.env.get("PARLEY_SMTP_SENDER") ?? "Parley <noreply@parley.local>",
        to: address,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    }
  } finally {
    transport.close();
  }
  return { sent: to.length };
}

/** Text made safe to put into HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
