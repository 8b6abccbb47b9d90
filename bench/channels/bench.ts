// bench/channels: inbound event → reply posted, for Slack and Telegram, on a fresh stack whose
// functions talk to the local fake platforms, answered by the extractive default (the seeded
// "Acme Help Center"). See README.md for the method.
import { deliverSlack, deliverTelegram, slackMention, startFakePlatforms, telegramMessage } from "../../supabase/functions/_shared/channels/test-fixtures.ts";
import { DEMO, startStackWith } from "../../supabase/functions/channels/test-stack.ts";

const REQUESTS = Number(Deno.env.get("REQUESTS") ?? 50);
const WARMUP = Number(Deno.env.get("WARMUP") ?? 5);
const QUESTIONS = [
  "Are my notes encrypted?",
  "Can I download all my data?",
  "Are my notes encrypted?",
  "How do GDPR requests work?",
  "What is an end-to-end encrypted notebook?",
  "Do you sell my data?",
];
const SIGNING_SECRET = "bench-signing-secret";

const fake = await startFakePlatforms();
const stack = await startStackWith({ ...fake.env, PARLEY_CHAT_USER_LIMIT: "100000" });
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const fmt = (n: number) => n.toFixed(1);

try {
  const owner = await stack.as(DEMO.owner);
  const ids: Record<string, string> = {};
  for (const type of ["slack", "telegram"]) {
    const { data, error } = await owner.client.from("channels").insert({ bot_id: DEMO.helpCenterBot, type, name: `bench ${type}` }).select("id").single();
    if (error) throw error;
    ids[type] = data.id;
  }
  await owner.client.rpc("set_channel_credentials", { channel_id: ids.slack, credentials: { bot_token: fake.tokens.slack, signing_secret: SIGNING_SECRET } });
  await owner.client.rpc("set_channel_credentials", { channel_id: ids.telegram, credentials: { bot_token: fake.tokens.telegram } });
  for (const id of Object.values(ids)) {
    const res = await fetch(stack.functionUrl("channels-connect"), {
      method: "POST",
      headers: { Authorization: `Bearer ${owner.token}`, apikey: stack.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ channel_id: id, action: "connect" }),
    });
    if (res.status !== 200) throw new Error(`connect: ${res.status} ${await res.text()}`);
  }
  const secret = fake.telegramWebhook!.secret_token;

  async function once(platform: "slack" | "telegram", i: number): Promise<{ ack: number; reply: number }> {
    const question = QUESTIONS[i % QUESTIONS.length]!;
    const before = fake.calls.length;
    const started = performance.now();
    const url = stack.functionUrl(`channels/${ids[platform]}/${platform}`);
    const res = platform === "slack"
      ? await deliverSlack(url, SIGNING_SECRET, slackMention(question, { user: `UBENCH${i}` }))
      : await deliverTelegram(url, secret, telegramMessage(question, { chatId: 900_000 + i }));
    await res.body?.cancel();
    if (res.status !== 200) throw new Error(`${platform} delivery: ${res.status}`);
    const ack = performance.now() - started;
    const method = platform === "slack" ? "chat.postMessage" : "sendMessage";
    for (;;) {
      const hit = fake.calls.slice(before).find((c) => c.platform === platform && c.method === method);
      if (hit) return { ack, reply: hit.at - started };
      if (performance.now() - started > 30_000) throw new Error(`${platform}: no reply within 30 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  const rows: string[] = [];
  for (const platform of ["slack", "telegram"] as const) {
    for (let i = 0; i < WARMUP; i++) await once(platform, 10_000 + i);
    const acks: number[] = [];
    const replies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const r = await once(platform, i);
      acks.push(r.ack);
      replies.push(r.reply);
    }
    const line = (label: string, xs: number[]) =>
      `| ${platform} | ${label} | ${fmt(pct(xs, 50))} | ${fmt(pct(xs, 95))} | ${fmt(Math.min(...xs))} | ${fmt(Math.max(...xs))} |`;
    rows.push(line("acknowledged (HTTP answer to the platform)", acks), line("reply posted at the fake platform", replies));
  }
  const report = [
    `# bench/channels results`,
    ``,
    `${new Date().toISOString()}, ${REQUESTS} sequential deliveries per platform after ${WARMUP} warm-up, extractive default, seeded Acme Help Center (11 chunks).`,
    ``,
    `| platform | measure | median ms | p95 ms | min ms | max ms |`,
    `| --- | --- | ---: | ---: | ---: | ---: |`,
    ...rows,
    ``,
  ].join("\n");
  console.log(report);
  await Deno.writeTextFile(new URL("./results.md", import.meta.url), report);
} finally {
  await stack.stop();
  await fake.close();
}
