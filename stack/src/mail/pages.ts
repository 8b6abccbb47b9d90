// The mailbox's HTML pages: a list and a message view. Every value is escaped;
// a message's own HTML is shown in a sandboxed iframe so its links stay clickable
// without its markup reaching the page.
import type { MailMessage } from "./mailbox.ts";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}td,th{padding:.4rem .6rem;border-bottom:1px solid #ddd;text-align:left}
a{color:#2459c7}iframe{width:100%;height:32rem;border:1px solid #ccc}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}
form{display:inline}</style></head><body>${body}</body></html>`;
}

export function listPage(messages: MailMessage[], to: string | null): string {
  const rows = messages
    .map(
      (m) => `<tr><td>${escapeHtml(m.created_at)}</td><td><a href="?to=${encodeURIComponent(m.to)}">${escapeHtml(m.to)}</a></td>
<td><a href="/mail/m/${encodeURIComponent(m.id)}">${escapeHtml(m.subject)}</a></td></tr>`,
    )
    .join("");
  const filter = to ? `<p>Showing mail to <strong>${escapeHtml(to)}</strong> · <a href="/mail/">all mail</a></p>` : "";
  return page(
    "Mailbox",
    `<h1>Mailbox</h1><p>Emails the local stack sent (no SMTP server is configured).</p>${filter}
<table><thead><tr><th>Sent</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows || `<tr><td colspan="3">No messages.</td></tr>`}</tbody></table>`,
  );
}

export function messagePage(m: MailMessage): string {
  return page(
    m.subject,
    `<p><a href="/mail/">← Mailbox</a></p><h1>${escapeHtml(m.subject)}</h1>
<p>To: ${escapeHtml(m.to)}<br>From: ${escapeHtml(m.from)}<br>Sent: ${escapeHtml(m.created_at)}</p>
<iframe title="Message" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation" srcdoc="${escapeHtml(
      m.html.replace(/<a /gi, '<a target="_top" '),
    )}"></iframe><h2>Text</h2><pre>${escapeHtml(m.text)}</pre>`,
  );
}
