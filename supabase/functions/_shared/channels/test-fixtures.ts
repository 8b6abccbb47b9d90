// Local stand-ins for Slack, Discord, Telegram and WhatsApp on 127.0.0.1, for
// tests and bench/channels. One server speaks each platform's real wire format
// on its own path prefix and records every call the bot makes; the `deliver*`
// helpers play the platform's side, sending signed deliveries to a receiver
// exactly as the platform would (with the secrets the bot registered).
//   Slack     {url}/slack/api/<method>            (PARLEY_SLACK_API_URL)
//   Discord   {url}/discord/api/...               (PARLEY_DISCORD_API_URL)
//   Telegram  {url}/telegram/bot<token>/<method>  (PARLEY_TELEGRAM_API_URL = {url}/telegram)
//   WhatsApp  {url}/whatsapp/<phone_number_id>... (PARLEY_WHATSAPP_API_URL)
// The server is node:http, so the same fakes serve Deno tests and the Node browser tests (e2e/).
import http from "node:http";
import { toHex } from "./crypto.ts";
import { signSlack } from "./slack.ts";
import { signWhatsApp } from "./whatsapp.ts";

export interface PlatformCall {
  platform: "slack" | "discord" | "telegram" | "whatsapp";
  method: string;
  path: string;
  headers: Headers;
  body: Record<string, any>;
  at: number;
}

export interface FakePlatforms {
  url: string;
  /** The env a stack's functions need to talk to these fakes. */
  env: Record<string, string>;
  calls: PlatformCall[];
  /** Valid tokens per platform; anything else is refused as the platform would. */
  tokens: { slack: string; discord: string; telegram: string; whatsapp: string };
  /** What Telegram's setWebhook last received. */
  telegramWebhook: { url: string; secret_token: string } | null;
  /** Discord's application id and the key pair its interactions are signed with. */
  discord: { applicationId: string; publicKey: string; privateKey: CryptoKey };
  /** The Slack app's OAuth client, and the code its authorize page hands out. */
  slackOAuth: { clientId: string; clientSecret: string; code: string };
  /** WhatsApp recipients Meta refuses as outside the 24-hour window. */
  whatsappClosedWindow: Set<string>;
  /** Resolves when `n` calls matching `filter` were recorded (or rejects after `ms`). */
  waitFor(filter: (c: PlatformCall) => boolean, n?: number, ms?: number): Promise<PlatformCall[]>;
  close(): Promise<void>;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export async function startFakePlatforms(): Promise<FakePlatforms> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = toHex(await crypto.subtle.exportKey("raw", pair.publicKey));
  const rand = () => crypto.randomUUID().replace(/-/g, "");
  const fake: Omit<FakePlatforms, "url" | "env" | "close"> = {
    calls: [],
    tokens: {
      slack: `xoxb-${rand()}`,
      discord: `discord.${rand()}`,
      telegram: `123456:${rand()}`,
      whatsapp: `EAAG${rand()}`,
    },
    telegramWebhook: null,
    discord: { applicationId: "110000000000000001", publicKey, privateKey: pair.privateKey },
    slackOAuth: { clientId: "1111.2222", clientSecret: `cs-${rand()}`, code: `code-${rand()}` },
    whatsappClosedWindow: new Set(),
    waitFor: async () => [],
  };
  let messageSeq = 1000;

  async function handle(req: Request): Promise<Response> {
    const u = new URL(req.url);
    const text = req.method === "GET" ? "" : await req.text();
    let body: Record<string, any> = {};
    const form = (req.headers.get("content-type") ?? "").includes("x-www-form-urlencoded");
    try {
      body = text && !form ? JSON.parse(text) : {};
    } catch {
      return json({ ok: false, error: "invalid_json" }, 400);
    }
    const p = u.pathname;
    const record = (platform: PlatformCall["platform"], method: string) =>
      fake.calls.push({ platform, method, path: p, headers: req.headers, body, at: performance.now() });

    // Slack Web API: always HTTP 200, {ok:false,error} on refusal.
    let m = /^\/slack\/api\/([\w.]+)$/.exec(p);
    if (m) {
      record("slack", m[1]!);
      if (m[1] === "oauth.v2.access") {
        // Form-encoded, as Slack takes it; the code is the one the fake "authorize page" gave.
        const form = new URLSearchParams(text);
        if (form.get("client_id") !== fake.slackOAuth.clientId || form.get("client_secret") !== fake.slackOAuth.clientSecret) return json({ ok: false, error: "invalid_client_id" });
        if (form.get("code") !== fake.slackOAuth.code) return json({ ok: false, error: "invalid_code" });
        return json({ ok: true, access_token: fake.tokens.slack, token_type: "bot", scope: "app_mentions:read,chat:write,im:history", bot_user_id: "UBOT", app_id: "AFAKE", team: { id: "TFAKE", name: "Fake Team" } });
      }
      if (req.headers.get("authorization") !== `Bearer ${fake.tokens.slack}`) return json({ ok: false, error: "invalid_auth" });
      if (m[1] === "auth.test") return json({ ok: true, url: "https://fake.slack.test/", team: "Fake Team", team_id: "TFAKE", user: "parley", user_id: "UBOT", bot_id: "BBOT" });
      if (m[1] === "chat.postMessage") {
        if (!body.channel || !body.text) return json({ ok: false, error: "invalid_arguments" });
        return json({ ok: true, channel: body.channel, ts: `${Date.now() / 1000}`, message: { text: body.text } });
      }
      return json({ ok: false, error: "unknown_method" });
    }

    // Discord HTTP API.
    m = /^\/discord\/api(\/.*)$/.exec(p);
    if (m) {
      const route = m[1]!;
      const isWebhook = route.startsWith("/webhooks/");
      record("discord", `${req.method} ${route.replace(/\/webhooks\/(\d+)\/[^/]+/, "/webhooks/$1/:token")}`);
      if (!isWebhook && req.headers.get("authorization") !== `Bot ${fake.tokens.discord}`) return json({ message: "401: Unauthorized", code: 0 }, 401);
      if (route === "/applications/@me" && req.method === "GET") {
        return json({ id: fake.discord.applicationId, name: "Fake Parley", verify_key: fake.discord.publicKey, bot_public: true });
      }
      if (route === `/applications/${fake.discord.applicationId}/commands` && req.method === "POST") {
        return json({ id: "120000000000000001", application_id: fake.discord.applicationId, version: "1", ...body }, 201);
      }
      if (isWebhook) return json({ id: String(messageSeq++), content: body.content ?? "" });
      if (/^\/channels\/\d+\/messages$/.test(route)) return json({ id: String(messageSeq++), content: body.content ?? "" });
      return json({ message: "404: Not Found", code: 0 }, 404);
    }

    // Telegram Bot API.
    m = /^\/telegram\/bot([^/]+)\/(\w+)$/.exec(p);
    if (m) {
      record("telegram", m[2]!);
      if (m[1] !== fake.tokens.telegram) return json({ ok: false, error_code: 401, description: "Unauthorized" }, 401);
      switch (m[2]) {
        case "getMe":
          return json({ ok: true, result: { id: 123456, is_bot: true, first_name: "Parley", username: "parley_test_bot" } });
        case "setWebhook":
          if (!/^[A-Za-z0-9_-]{1,256}$/.test(body.secret_token ?? "")) return json({ ok: false, error_code: 400, description: "Bad Request: secret token contains unallowed characters" }, 400);
          fake.telegramWebhook = { url: body.url, secret_token: body.secret_token };
          return json({ ok: true, result: true, description: "Webhook was set" });
        case "deleteWebhook":
          fake.telegramWebhook = null;
          return json({ ok: true, result: true, description: "Webhook was deleted" });
        case "sendMessage":
          if (typeof body.text !== "string" || body.text.length > 4096) return json({ ok: false, error_code: 400, description: "Bad Request: message is too long" }, 400);
          if (body.parse_mode === "MarkdownV2" && /(^|[^\\])[.!\-=(){}#+>|~]/.test(body.text.replace(/\[[^\]]*\]\([^)]*\)/g, ""))) {
            return json({ ok: false, error_code: 400, description: "Bad Request: can't parse entities: character must be escaped" }, 400);
          }
          return json({ ok: true, result: { message_id: messageSeq++, chat: { id: Number(body.chat_id) }, text: body.text } });
        default:
          return json({ ok: false, error_code: 404, description: "Not Found" }, 404);
      }
    }

    // WhatsApp Cloud API (Graph).
    m = /^\/whatsapp\/(\d+)(\/messages)?$/.exec(p);
    if (m) {
      record("whatsapp", m[2] ? "messages" : "phone_number");
      if (req.headers.get("authorization") !== `Bearer ${fake.tokens.whatsapp}`) {
        return json({ error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } }, 401);
      }
      if (!m[2]) return json({ id: m[1], display_phone_number: "+1 555 0100", verified_name: "Fake Business" });
      if (fake.whatsappClosedWindow.has(String(body.to))) {
        return json({ error: { message: "Re-engagement message", type: "OAuthException", code: 131047 } }, 400);
      }
      return json({ messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.${rand()}` }] });
    }
    return json({ error: "not found" }, 404);
  }

  const server = http.createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = chunks.length ? new TextDecoder().decode(concat(chunks)) : undefined;
      const method = req.method ?? "GET";
      const answer = await handle(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method, headers, body: method === "GET" ? undefined : body }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  fake.waitFor = async (filter, n = 1, ms = 20_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const hits = fake.calls.filter(filter);
      if (hits.length >= n) return hits;
      if (Date.now() > deadline) throw new Error(`fake platforms: waited ${ms} ms for ${n} matching call(s), saw ${hits.length}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return {
    ...fake,
    get telegramWebhook() {
      return fake.telegramWebhook;
    },
    url,
    env: {
      PARLEY_SLACK_API_URL: `${url}/slack/api`,
      PARLEY_DISCORD_API_URL: `${url}/discord/api`,
      PARLEY_TELEGRAM_API_URL: `${url}/telegram`,
      PARLEY_WHATSAPP_API_URL: `${url}/whatsapp`,
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  } as FakePlatforms;
}

// The platform's side: deliveries as each platform sends them. -----------------

export async function deliverSlack(receiverUrl: string, signingSecret: string, body: unknown, opts: { timestamp?: number; headers?: Record<string, string> } = {}) {
  const raw = JSON.stringify(body);
  return await fetch(receiverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...(await signSlack(signingSecret, raw, opts.timestamp)), ...opts.headers },
    body: raw,
  });
}

export function slackMention(text: string, opts: { eventId?: string; channel?: string; ts?: string; threadTs?: string; user?: string; dm?: boolean } = {}) {
  const ts = opts.ts ?? `${Math.floor(Date.now() / 1000)}.${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
  return {
    token: "deprecated-verification-token",
    team_id: "TFAKE",
    api_app_id: "AFAKE",
    type: "event_callback",
    event_id: opts.eventId ?? `Ev${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    event: opts.dm
      ? { type: "message", channel_type: "im", user: opts.user ?? "UHUMAN", text, ts, channel: opts.channel ?? "DFAKE", ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}) }
      : { type: "app_mention", user: opts.user ?? "UHUMAN", text: `<@UBOT> ${text}`, ts, channel: opts.channel ?? "CFAKE", ...(opts.threadTs ? { thread_ts: opts.threadTs } : {}) },
  };
}

export async function deliverDiscord(receiverUrl: string, privateKey: CryptoKey, body: unknown, opts: { timestamp?: number } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const sig = toHex(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, new TextEncoder().encode(timestamp + raw)));
  return await fetch(receiverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-signature-ed25519": sig, "x-signature-timestamp": timestamp },
    body: raw,
  });
}

export function discordAsk(applicationId: string, question: string, opts: { id?: string; user?: string; channel?: string } = {}) {
  return {
    id: opts.id ?? String(BigInt(Date.now()) * 1000n + BigInt(Math.floor(Math.random() * 1000))),
    application_id: applicationId,
    type: 2,
    token: `itoken-${crypto.randomUUID()}`,
    version: 1,
    guild_id: "130000000000000001",
    channel_id: opts.channel ?? "140000000000000001",
    member: { user: { id: opts.user ?? "150000000000000001", username: "human" } },
    data: { id: "120000000000000001", name: "ask", type: 1, options: [{ name: "question", type: 3, value: question }] },
  };
}

export async function deliverTelegram(receiverUrl: string, secretToken: string | null, update: unknown) {
  return await fetch(receiverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...(secretToken ? { "x-telegram-bot-api-secret-token": secretToken } : {}) },
    body: JSON.stringify(update),
  });
}

let updateSeq = 500_000;
export function telegramMessage(text: string, opts: { chatId?: number; chatType?: "private" | "group" | "supergroup"; fromId?: number; updateId?: number; replyToUsername?: string } = {}) {
  const chatId = opts.chatId ?? 777;
  return {
    update_id: opts.updateId ?? updateSeq++,
    message: {
      message_id: updateSeq,
      from: { id: opts.fromId ?? chatId, is_bot: false, first_name: "Human" },
      chat: { id: chatId, type: opts.chatType ?? "private" },
      date: Math.floor(Date.now() / 1000),
      text,
      ...(opts.replyToUsername ? { reply_to_message: { message_id: 1, from: { id: 123456, is_bot: true, username: opts.replyToUsername } } } : {}),
    },
  };
}

export async function deliverWhatsApp(receiverUrl: string, appSecret: string, body: unknown) {
  const raw = JSON.stringify(body);
  return await fetch(receiverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", ...(await signWhatsApp(appSecret, raw)) },
    body: raw,
  });
}

export function whatsappText(phoneNumberId: string, from: string, text: string, opts: { id?: string; timestamp?: number } = {}) {
  return {
    object: "whatsapp_business_account",
    entry: [{
      id: "WABA_ID",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "15550100", phone_number_id: phoneNumberId },
          contacts: [{ profile: { name: "Human" }, wa_id: from }],
          messages: [{ from, id: opts.id ?? `wamid.${crypto.randomUUID()}`, timestamp: String(opts.timestamp ?? Math.floor(Date.now() / 1000)), type: "text", text: { body: text } }],
        },
      }],
    }],
  };
}
