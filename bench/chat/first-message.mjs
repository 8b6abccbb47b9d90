// "New visitor, first message": from pressing send to the first visible answer text, for a
// visitor without a session (anonymous sign-in, then POST /functions/v1/chat until the first
// `token` event), as the chat page does it. Runs under scripts/with-stack.mjs on a fresh stack
// (commands in README.md): the first visitor right after the bot is set up, then 10 more.
// Prints one JSON line.
import { anonKey, api, call, ingestText, ownerWithBot } from "./api.mjs";

const started = performance.now();

// A bot with a little knowledge, as an owner sets it up.
const { token, bot } = await ownerWithBot("Help");
const text =
  "# Help\n\n## Shipping\n\nStandard shipping takes 3 to 5 working days. Express shipping costs 12 euros.\n\n## Returns\n\nYou can return any item within 30 days of delivery.";
await ingestText(token, bot.id, "Help", text);
const setupSeconds = (performance.now() - started) / 1000;
// FIRST_AFTER_S: the first visitor arrives this many seconds after the stack was running (default 0:
// right after the setup above).
const firstAfter = Number(process.env.FIRST_AFTER_S ?? 0) * 1000 - (performance.now() - started);
if (firstAfter > 0) await new Promise((r) => setTimeout(r, firstAfter));

/** One new visitor's first message: ms to the session, and to the first answer text. */
async function firstMessage() {
  const t0 = performance.now();
  const session = await call("POST", "/auth/v1/signup", { body: { data: {} } });
  const signedIn = performance.now() - t0;
  const res = await fetch(`${api}/functions/v1/chat`, {
    method: "POST",
    headers: {
      apikey: anonKey,
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: JSON.stringify({ bot_id: bot.id, message: "How much does express shipping cost?" }),
  });
  if (!res.ok) throw new Error(`chat: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  let firstToken = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    if (firstToken === null && buf.includes("event: token")) firstToken = performance.now() - t0;
  }
  if (firstToken === null) throw new Error(`no token event: ${buf.slice(0, 300)}`);
  return {
    signedIn: Math.round(signedIn),
    firstToken: Math.round(firstToken),
    whole: Math.round(performance.now() - t0),
  };
}

const firstAfterSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
const first = await firstMessage();
const later = [];
for (let i = 0; i < 10; i++) later.push(await firstMessage());
const sorted = later.map((r) => r.firstToken).sort((a, b) => a - b);
console.log(
  JSON.stringify({
    warm: process.env.PARLEY_WARM_FUNCTIONS ?? "chat",
    setup_seconds: Number(setupSeconds.toFixed(1)),
    first_visitor_after_s: firstAfterSeconds,
    first_visitor: first,
    later_visitors_first_token_ms: { median: sorted[5], max: sorted.at(-1), min: sorted[0] },
    later_visitors_sign_in_ms_median: later.map((r) => r.signedIn).sort((a, b) => a - b)[5],
  }),
);
