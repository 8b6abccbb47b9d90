// GET /transcript: txt and Markdown downloads of a visible chat, 404 otherwise;
// a shared chat may be downloaded by anyone with the link.
import assert from "node:assert/strict";
import { callFunction, stack } from "../_shared/testing.ts";
import { chat, createBot, signedInUser } from "../chat/test-helpers.ts";
import { contentDisposition, toMarkdown, toText, transcriptLanguage } from "./format.ts";

async function transcript(token: string, query: string) {
  const res = await callFunction("transcript", { method: "GET", token, path: `?${query}` });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const knowledge = [{ title: "Invoices", content: "Invoices are sent on the first day of each month." }];

Deno.test("transcript: txt and md with the powered-by title, sources and a filename", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "When are invoices sent?" });
  const chatId = r.events[0].data.chat_id;

  const txt = await transcript(visitor.token, `chat_id=${chatId}&format=txt`);
  assert.equal(txt.status, 200);
  assert.match(txt.headers.get("content-type")!, /^text\/plain/);
  assert.match(txt.headers.get("content-disposition")!, /^attachment; filename="Test-Bot-chat-\d{4}-\d{2}-\d{2}\.txt"/);
  assert.match(txt.text, /^Chat transcript powered by Parley\n/);
  assert.match(txt.text, /You:\nWhen are invoices sent\?/);
  assert.match(txt.text, /Test Bot:\nHere is what I found/);
  assert.match(txt.text, /Sources:\n {2}\[1\] Invoices/);

  const md = await transcript(visitor.token, `chat_id=${chatId}&format=md`);
  assert.equal(md.status, 200);
  assert.match(md.headers.get("content-type")!, /^text\/markdown/);
  assert.match(md.headers.get("content-disposition")!, /\.md"/);
  assert.match(md.text, /^# Chat transcript powered by Parley\n/);
  assert.match(md.text, /### You · /);
  assert.match(md.text, /1\. \[Invoices\]\(<https:\/\/docs\.example\.test\//);
});

Deno.test("transcript: without branding the title is the bot's name", async () => {
  const { botId } = await createBot({ chunks: knowledge, showPoweredBy: false });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const t = await transcript(visitor.token, `chat_id=${r.events[0].data.chat_id}`);
  assert.equal(t.status, 200);
  assert.match(t.text, /^Chat transcript: Test Bot\n/);
  assert.ok(!t.text.includes("Parley"));
});

Deno.test("transcript: 404 for other visitors until shared, then readable by link; 400 for bad queries", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const other = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "invoices" });
  const chatId = r.events[0].data.chat_id;
  const hidden = await transcript(other.token, `chat_id=${chatId}`);
  assert.equal(hidden.status, 404);
  assert.equal(JSON.parse(hidden.text).error.code, "chat_not_found");
  assert.equal((await transcript(other.token, `chat_id=${crypto.randomUUID()}`)).status, 404);

  // The bot's team may download its conversations.
  assert.equal((await transcript(owner.token, `chat_id=${chatId}&format=md`)).status, 200);

  await visitor.client.from("chats").update({ shared: true }).eq("id", chatId);
  const shared = await transcript(other.token, `chat_id=${chatId}&format=md`);
  assert.equal(shared.status, 200);
  assert.match(shared.text, /When|invoices/);

  assert.equal(
    (await transcript(stack.anonKey, `chat_id=${chatId}`)).status,
    404,
    "a shared chat still needs a (possibly anonymous) session",
  );

  assert.equal((await transcript(visitor.token, "chat_id=nope")).status, 400);
  assert.equal((await transcript(visitor.token, `chat_id=${chatId}&format=pdf`)).status, 400);
});

Deno.test("contentDisposition keeps an ASCII filename and a UTF-8 one", () => {
  assert.equal(
    contentDisposition('Ünïcode "bot" 2026-11-21', "txt"),
    `attachment; filename="Unicode-bot-2026-11-21.txt"; filename*=UTF-8''%C3%9Cn%C3%AFcode%20%22bot%22%202026-11-21.txt`,
  );
});

Deno.test("transcript: in the visitor's language (?lang=, else Accept-Language), labels and title", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "When are invoices sent?" });
  const chatId = r.events[0].data.chat_id;
  const de = await transcript(visitor.token, `chat_id=${chatId}&format=txt&lang=de`);
  assert.equal(de.status, 200);
  assert.match(de.text, /^Chat-Protokoll, bereitgestellt von Parley\n/);
  assert.match(de.text, /\nBot: Test Bot\nBegonnen: /);
  assert.match(de.text, /\] Sie:\nWhen are invoices sent\?/);
  assert.match(de.text, /Quellen:\n {2}\[1\] Invoices/);
  const md = await transcript(visitor.token, `chat_id=${chatId}&format=md&lang=el`);
  assert.match(md.text, /### Εσείς · /);
  assert.equal(transcriptLanguage(null, "ja-JP,ja;q=0.9,en;q=0.8"), "jp");
  assert.equal(transcriptLanguage("xx", "fr-CH, fr;q=0.9"), "fr");
  assert.equal(transcriptLanguage(null, null), "en");
});

Deno.test("transcript: the .txt has no Markdown marks: bold, emphasis, code, headings, links", () => {
  const text = toText({
    lang: "en",
    title: "T",
    botName: "Bot",
    chatTitle: null,
    createdAt: "2026-11-23T10:00:00Z",
    messages: [{
      role: "assistant",
      created_at: "2026-11-23T10:00:01Z",
      content: "## Steps\n\n**Open** the _Settings_ page, click `Reset` and see [the guide](https://docs.example.test/reset).\n* one\n* two",
    }],
  });
  assert.match(text, /Steps\n\nOpen the Settings page, click Reset and see the guide <https:\/\/docs\.example\.test\/reset>\.\n- one\n- two/);
  assert.doesNotMatch(text, /\*|`|##/);
});

Deno.test("transcript: a person's reply after a handoff is the team's, not the bot's", async () => {
  const { botId, owner } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "When are invoices sent?" });
  const chatId = r.events[0].data.chat_id;
  const reply = await owner.client.rpc("reply_as_human", { chat_id: chatId, content: "Hello, **Ana** from billing here." });
  assert.equal(reply.error, null);
  const txt = await transcript(visitor.token, `chat_id=${chatId}&format=txt`);
  assert.match(txt.text, /\] Team:\nHello, Ana from billing here\./);
  assert.doesNotMatch(txt.text, /Test Bot:\nHello, /);
  const md = await transcript(owner.token, `chat_id=${chatId}&format=md&lang=pl`);
  assert.match(md.text, /### Zespół · [^\n]+\n\nHello, \*\*Ana\*\* from billing here\./);
});

Deno.test("transcript: what the power-ups showed, as the chat shows it; unknown and unsafe entries left out", () => {
  const base = { lang: "en" as const, title: "T", botName: "Bot", chatTitle: null, createdAt: "2026-11-23T10:00:00Z" };
  const messages = [{
    role: "assistant" as const,
    created_at: "2026-11-23T10:00:01Z",
    content: "Your order shipped.",
    actions: [
      { type: "tool", name: "order_status", label: "Order status", ok: true, request: { secret: "never shown" } },
      { type: "tool", name: "crm", ok: false },
      { type: "link", label: "Track it", url: "https://shop.example.test/track?id=1" },
      { type: "link", label: "Evil <b>", url: "javascript:alert(1)" },
      { type: "lead_form", label: "Talk to sales", fields: ["email"] },
      { type: "handoff", text: "A person from the team will take over." },
      { type: "webhook", label: "internal" },
      "nonsense",
      null,
    ],
  }];
  const text = toText({ ...base, messages });
  assert.match(
    text,
    /\] Bot:\n {2}\* Action: Order status\n {2}\* Could not use crm; the bot answered without it\.\nYour order shipped\.\n\n {2}\* Track it <https:\/\/shop\.example\.test\/track\?id=1>\n {2}\* A contact form was offered here: Talk to sales\n {2}\* A person from the team will take over\.\n/,
  );
  assert.doesNotMatch(text, /never shown|internal|javascript:|Evil|nonsense/);
  const md = toMarkdown({ ...base, lang: "de", messages });
  assert.match(md, /> Aktion: Order status\n/);
  assert.match(md, /- Hier wurde ein Kontaktformular angeboten: Talk to sales\n/);
  assert.match(md, /\n- \[Track it\]\(<https:\/\/shop\.example\.test\/track\?id=1>\)\n- Hier wurde/);
  assert.doesNotMatch(md, /javascript:|never shown/);
  // Not an array (an old row, a hand-written one): no lines, no failure.
  assert.match(toText({ ...base, messages: [{ ...messages[0]!, actions: { type: "tool" } }] }), /\] Bot:\nYour order shipped\./);
});
