// The extractive default through the real chat function: the chosen sentence cited, "I don't know"
// with the bot's suggested questions, another language than the knowledge, images without a
// vision model (the sentence choice itself: providers/extractive.test.ts).
import assert from "node:assert/strict";
import { serviceClient } from "../testing.ts";
import { answerText, assertStreamShape, chat, createBot, PNG_1PX, signedInUser } from "../../chat/test-helpers.ts";

const knowledge = [
  { title: "Returns", heading: "Help > Returns", content: "You can return any item within 30 days of delivery. Returns are free in Germany." },
  { title: "Shipping", heading: "Help > Shipping", content: "Standard shipping takes 3 to 5 working days. Express shipping costs 12 euros." },
];

Deno.test("extractive, chat: answers with the sentence that answers and cites only its passage", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "How much does express shipping cost?" });
  assertStreamShape(r.events);
  const text = answerText(r.events);
  assert.match(text, /Express shipping costs 12 euros\. \[1\]/);
  assert.doesNotMatch(text, /return any item/);
  const sources = r.events.find((e) => e.event === "sources")!.data;
  assert.equal(sources[0].title, "Shipping › Help › Shipping");
});

Deno.test("extractive, chat: does not know, offers the bot's suggested questions, cites nothing", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  await serviceClient().from("bots").update({ suggested_questions: ["How long does shipping take?"] }).eq("id", botId);
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "Is there a warranty on the blender?" });
  assertStreamShape(r.events);
  assert.match(answerText(r.events), /^I couldn't find anything about that[\s\S]*\n- How long does shipping take\?$/);
  assert.deepEqual(r.events.find((e) => e.event === "sources")!.data, []);
});

Deno.test("extractive, chat: a question in another language than the knowledge is told so in that language", async () => {
  const { botId } = await createBot({ chunks: knowledge });
  const visitor = await signedInUser();
  const r = await chat(visitor.token, { bot_id: botId, message: "Wie lange dauert der Versand nach Österreich?" });
  assert.match(answerText(r.events), /in einer anderen Sprache verfasst \(English\)/);
});

Deno.test("extractive, chat: an attached image is answered with 'images need a vision model'", async () => {
  const { botId } = await createBot({ language: "de", chunks: knowledge });
  const visitor = await signedInUser();
  const path = `${visitor.user.id}/pixel.png`;
  const up = await visitor.client.storage.from("chat-images").upload(path, new Blob([PNG_1PX], { type: "image/png" }));
  assert.equal(up.error, null);
  const r = await chat(visitor.token, { bot_id: botId, message: "Was ist das?", images: [{ path }] });
  assertStreamShape(r.events);
  assert.match(answerText(r.events), /^Bilder kann ich nicht ansehen: Dafür ist ein Modell mit Bildverständnis nötig/);
});
