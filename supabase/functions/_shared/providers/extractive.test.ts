// The extractive default without a stack: sentence choice, citations, "read more", honest
// "I don't know", another language than the knowledge, images without a vision model.
import assert from "node:assert/strict";
import {
  detectLanguage,
  extractiveReply,
  imagesNeedVision,
  type Passage,
  scoreSentences,
  sentences,
  streamText,
} from "./extractive.ts";

const passage = (id: string, content: string, extra: Partial<Passage> = {}): Passage => ({
  chunk_id: `c-${id}`,
  document_id: `d-${id}`,
  content,
  heading_path: null,
  document_title: `Doc ${id}`,
  document_url: `https://docs.example.test/${id}`,
  score: 1,
  ...extra,
});

const shipping = passage(
  "ship",
  "Orders are packed in our Berlin warehouse. Standard shipping takes 3 to 5 working days within Germany. Express shipping costs 12 euros and arrives the next day. We ship with DHL.",
  { heading_path: "Help > Shipping" },
);
const returns = passage(
  "ret",
  "You can return any item within 30 days of delivery. Returns are free for customers in Germany. Refunds reach your account within a week.",
  { heading_path: "Help > Returns" },
);
const account = passage(
  "acc",
  "Your account page lists your orders and invoices. You can change your shipping address there.",
);

Deno.test("extractive: the sentence that answers comes first, cited, even when its passage ranks second", () => {
  const r = extractiveReply("How long does standard shipping take within Germany?", [account, shipping, returns], "en");
  assert.equal(r.kind, "answer");
  assert.match(r.text, /^Here is what I found in the knowledge base:\n\n/);
  assert.match(r.text, /Standard shipping takes 3 to 5 working days within Germany\./);
  assert.doesNotMatch(r.text, /Orders are packed/, "sentences that do not answer are left out");
  assert.equal(r.sources[0]!.chunk_id, "c-ship", "the cited passage is source [1]");
  assert.match(r.text, /working days within Germany\.[^\n]*\[1\]/);
});

Deno.test("extractive: one to three sentences, and the other relevant pages as read more", () => {
  const r = extractiveReply("How much does express shipping cost?", [shipping, account, returns], "en");
  assert.equal(r.kind, "answer");
  const paragraph = r.text.split("\n\n")[1]!;
  const count = paragraph.split(/(?<=[.!?])\s+(?:\[\d\]\s*)?/).filter((s) => /\w/.test(s)).length;
  assert.ok(count >= 1 && count <= 3, paragraph);
  assert.match(paragraph, /Express shipping costs 12 euros/);
  assert.match(r.text, /\n\nRead more: Doc acc \[2\]$/);
  assert.deepEqual(
    r.sources.map((s) => s.chunk_id),
    ["c-ship", "c-acc"],
  );
});

Deno.test("extractive: numbers and names weigh more than common words", () => {
  const scored = scoreSentences("Do you ship with DHL?", [shipping]);
  const top = [...scored].sort((a, b) => b.score - a.score)[0]!;
  assert.equal(top.text, "We ship with DHL.");
});

Deno.test("extractive: says it does not know, in the bot's language, and offers the suggested questions", () => {
  const en = extractiveReply("Is there a warranty on the blender?", [shipping, returns], "en", {
    suggestedQuestions: ["How long does shipping take?", "How do I return an item?"],
  });
  assert.equal(en.kind, "unknown");
  assert.deepEqual(en.sources, []);
  assert.match(en.text, /^I couldn't find anything about that/);
  assert.match(en.text, /You could ask, for example:\n- How long does shipping take\?\n- How do I return an item\?$/);
  const de = extractiveReply("warranty blender", [shipping], "de");
  assert.match(de.text, /Wissensdatenbank leider nichts/);
  assert.equal(extractiveReply("anything", [], "fr").kind, "unknown");
});

Deno.test("extractive: a question in another language than the knowledge is told so in its own language", () => {
  const r = extractiveReply("Wie lange dauert der Versand nach Österreich?", [shipping, returns], "en");
  assert.equal(r.kind, "other_language");
  assert.match(r.text, /in einer anderen Sprache verfasst \(English\)/);
  const jp = extractiveReply("配送にはどのくらいかかりますか？", [shipping], "en");
  assert.match(jp.text, /別の言語（English）/);
  assert.equal(detectLanguage("¿Cuánto cuesta el envío a España?"), null, "too little evidence: no claim");
  assert.equal(detectLanguage("¿Cuánto cuesta el envío de los pedidos a España?"), "es");
});

Deno.test("extractive: images need a vision model, said in the bot's language", () => {
  assert.match(imagesNeedVision("en"), /vision model/);
  assert.match(imagesNeedVision("de"), /Bildverständnis/);
});

Deno.test("extractive: sentences skip code blocks, tables and list markers", () => {
  const s = sentences(
    "# Install\n\n```sh\nnpm install x\n```\n\n- First item. Second one.\n| a | b |\n|---|---|\nDone!",
  );
  assert.deepEqual(s, ["Install", "First item.", "Second one.", "Done!"]);
});

Deno.test("extractive: streams in pieces that add up to the text", async () => {
  const text = "A fairly long answer that should arrive in several pieces, like a model's tokens would.";
  let joined = "";
  let tokens = 0;
  for await (const ev of streamText(text)) {
    if (ev.type !== "token") continue;
    joined += ev.text;
    tokens++;
  }
  assert.equal(joined, text);
  assert.ok(tokens > 3);
});

Deno.test(
  "extractive: a definition answers with its whole list item, and a label item owns the paragraph after it",
  () => {
    const api = passage(
      "api",
      "## Options\n\n* `max` The maximum size of the cache.\n  Defaults to 100 entries.\n\n* `peek(key)`\n\nReturns the value without updating its recency.\n\n* `reset()`\n\nEmpties the cache.",
      { heading_path: "Cache > API" },
    );
    const max = extractiveReply("What is the default maximum size of the cache?", [api], "en");
    assert.match(max.text, /The maximum size of the cache\. Defaults to 100 entries\. \[1\]/);
    const peek = extractiveReply("Does peek update the recency?", [api], "en");
    assert.match(peek.text, /`peek\(key\)` Returns the value without updating its recency\./);
    assert.doesNotMatch(peek.text, /Empties/);
  },
);

Deno.test(
  "extractive: a retrieval that returns only on-topic passages still answers (topic words common, filler words ignored)",
  () => {
    // As match_chunks' rerank returns them for e2e/channels.spec's question: every passage is about
    // apps or offline use, the one that answers ranks third, and "use" appears once elsewhere.
    const lock = passage(
      "lock",
      "Turn on App lock in Settings > Security to require Face ID, Touch ID or your fingerprint whenever the app opens.",
      {
        heading_path: "Using the mobile apps > Face ID and fingerprint lock",
      },
    );
    const versions = passage(
      "ios",
      "The iOS app needs iOS 16 or later and the Android app needs Android 10 or later.",
      { heading_path: "Using the mobile apps" },
    );
    const offline = passage(
      "off",
      "The desktop and mobile apps work fully offline: you can create, edit and delete notes without a connection. On the web app, turn on Offline mode in Settings > Devices to keep a copy in your browser. Changes made offline sync automatically when you reconnect.",
      { heading_path: "Sync and offline access > Working offline" },
    );
    const conflicts = passage(
      "conf",
      "If the same paragraph was changed on two devices while offline, Acme keeps both versions and marks the note with a conflict banner.",
      {
        heading_path: "Sync and offline access > Conflicts",
      },
    );
    const tags = passage("tags", "Type # in a note to add a tag, or use the tag field under the title.", {
      heading_path: "Organizing notes > Tags",
    });
    const r = extractiveReply("Can I use the app offline?", [lock, versions, offline, conflicts, tags], "en");
    assert.equal(r.kind, "answer", `best ${r.best}`);
    assert.match(r.text, /apps work fully offline/);
    assert.equal(r.sources[0]!.chunk_id, "c-off");
  },
);

Deno.test("extractive: a plural matches its singular ('apps' answers 'app')", () => {
  const [s] = scoreSentences("Is there a desktop app?", [passage("d", "Desktop apps exist for Windows and macOS.")]);
  assert.ok(s!.score > 0.9, `score ${s!.score}`);
});
