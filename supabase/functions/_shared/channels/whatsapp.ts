// WhatsApp Cloud API: webhooks in, the Graph API out (base URL
// PARLEY_WHATSAPP_API_URL, default https://graph.facebook.com/v21.0).
//   * GET with hub.mode=subscribe and the channel's verify token answers
//     hub.challenge (Meta checks the callback URL that way);
//   * every POST carries X-Hub-Signature-256 = "sha256=" + hex HMAC-SHA256 of
//     the raw body with the app secret;
//   * text messages are answered through /<phone_number_id>/messages;
//   * the 24-hour customer-service window: a free-form reply is only allowed
//     within 24 hours of the customer's last message. Parley checks it before
//     sending and maps Meta's refusal (error 131047) to the same status.
import { hmacSha256Hex, timingSafeEqual } from "./crypto.ts";
import { splitMessage } from "./text.ts";
import { ChannelError, type InboundMessage, type Parsed, type PlatformClient, PlatformError, platformBaseUrl, platformJson } from "./types.ts";

export const WHATSAPP_TEXT_LIMIT = 4096;
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Meta: "Re-engagement message" — more than 24 hours since the customer last replied. */
const META_OUTSIDE_WINDOW = 131047;

export function whatsappClient(f: typeof fetch = fetch): PlatformClient {
  return { baseUrl: platformBaseUrl("PARLEY_WHATSAPP_API_URL", "https://graph.facebook.com/v21.0"), fetch: f };
}

/** The GET verification: the challenge to echo, or a 403 ChannelError. */
export function whatsappChallenge(params: URLSearchParams, verifyToken: string | undefined): string {
  const mode = params.get("hub.mode");
  const token = params.get("hub.verify_token") ?? "";
  const challenge = params.get("hub.challenge") ?? "";
  if (mode !== "subscribe" || !verifyToken || !timingSafeEqual(token, verifyToken) || !challenge || challenge.length > 200) {
    throw new ChannelError(403, "verification_failed", "The verify token does not match");
  }
  return challenge;
}

export async function verifyWhatsAppRequest(headers: Headers, rawBody: string, appSecret: string | undefined): Promise<void> {
  const signature = headers.get("x-hub-signature-256") ?? "";
  if (!appSecret) throw new ChannelError(401, "not_configured", "This WhatsApp channel has no app secret yet");
  if (!signature) throw new ChannelError(401, "missing_signature", "X-Hub-Signature-256 is required");
  const expected = "sha256=" + (await hmacSha256Hex(appSecret, rawBody));
  if (!timingSafeEqual(expected, signature)) throw new ChannelError(401, "bad_signature", "The signature does not match");
}

export async function signWhatsApp(appSecret: string, rawBody: string) {
  return { "x-hub-signature-256": "sha256=" + (await hmacSha256Hex(appSecret, rawBody)) };
}

/**
 * The text messages of a verified webhook for this phone number. Messages older
 * than the window (a replay of an old delivery) are left out.
 */
/** A webhook as Meta sends it (every field checked where used). */
export interface WhatsAppWebhook {
  object?: string;
  entry?: {
    changes?: {
      field?: string;
      value?: {
        metadata?: { phone_number_id?: string };
        messages?: { from?: string; id?: string; timestamp?: string; type?: string; text?: { body?: string } }[];
      };
    }[];
  }[];
}

interface GraphAnswer {
  error?: { code?: number; message?: string };
  display_phone_number?: string;
  verified_name?: string;
}

export function parseWhatsAppWebhook(body: WhatsAppWebhook, phoneNumberId?: string, nowMs = Date.now()): Parsed {
  if (body.object !== "whatsapp_business_account" || !Array.isArray(body.entry)) return { kind: "ignore" };
  const messages: InboundMessage[] = [];
  let stale = 0;
  for (const entry of body.entry) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      if (change?.field !== "messages" || !value) continue;
      const phone = String(value.metadata?.phone_number_id ?? "");
      if (phoneNumberId && phone !== phoneNumberId) continue;
      for (const m of Array.isArray(value.messages) ? value.messages : []) {
        if (m?.type !== "text" || typeof m.text?.body !== "string" || !m.from || !m.id) continue;
        const sentMs = Number(m.timestamp) * 1000;
        if (!Number.isFinite(sentMs) || nowMs - sentMs > WHATSAPP_WINDOW_MS) {
          stale++;
          continue;
        }
        const text = m.text.body.trim();
        if (!text) continue;
        messages.push({
          deliveryId: String(m.id),
          conversationKey: `${phone}:${m.from}`,
          userId: String(m.from),
          chatId: String(m.from),
          text,
          kind: "message",
          replyTo: { to: String(m.from), phone_number_id: phone, message_id: String(m.id) },
        });
      }
    }
  }
  if (!messages.length) return stale ? { kind: "ignore", reason: "stale" } : { kind: "ignore" };
  return { kind: "message", messages, ack: { body: { ok: true } } };
}

async function graphCall(client: PlatformClient, token: string, path: string, init: { method: string; body?: unknown }) {
  const res = await client.fetch(`${client.baseUrl}${path}`, {
    method: init.method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const data = await platformJson<GraphAnswer>(res, "whatsapp");
  if (!res.ok || data.error) {
    const err = data.error ?? {};
    if (err.code === META_OUTSIDE_WINDOW) {
      throw new PlatformError("whatsapp_window_closed", "WhatsApp refused the reply: more than 24 hours since the customer's last message", res.status);
    }
    const code = res.status === 401 || err.code === 190 ? "whatsapp_invalid_token" : "whatsapp_error";
    throw new PlatformError(code, `WhatsApp refused the request: ${err.message ?? `HTTP ${res.status}`}`, res.status);
  }
  return data;
}

/** Checks the access token against the phone number; returns the settings to keep. */
export async function connectWhatsApp(client: PlatformClient, accessToken: string, phoneNumberId: string) {
  if (!/^\d{5,25}$/.test(phoneNumberId)) throw new PlatformError("whatsapp_invalid_phone_number_id", "The phone number id is the number Meta shows in WhatsApp > API Setup");
  const phone = await graphCall(client, accessToken, `/${phoneNumberId}?fields=display_phone_number,verified_name`, { method: "GET" });
  return { phone_number_id: phoneNumberId, display_phone_number: String(phone.display_phone_number ?? ""), verified_name: String(phone.verified_name ?? "") };
}

/**
 * Sends a text answer, refusing (PlatformError whatsapp_window_closed) when the
 * customer's last message is older than 24 hours.
 */
export async function sendWhatsApp(
  client: PlatformClient,
  accessToken: string,
  to: { to: string; phone_number_id: string; message_id?: string },
  text: string,
  lastInboundAt: Date | null,
  now = Date.now(),
) {
  if (!lastInboundAt || now - lastInboundAt.getTime() > WHATSAPP_WINDOW_MS) {
    throw new PlatformError("whatsapp_window_closed", "WhatsApp allows free-form replies only within 24 hours of the customer's last message");
  }
  for (const [i, part] of splitMessage(text, WHATSAPP_TEXT_LIMIT).entries()) {
    await graphCall(client, accessToken, `/${encodeURIComponent(to.phone_number_id)}/messages`, {
      method: "POST",
      body: {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: to.to,
        type: "text",
        text: { preview_url: false, body: part },
        ...(i === 0 && to.message_id ? { context: { message_id: to.message_id } } : {}),
      },
    });
  }
}
