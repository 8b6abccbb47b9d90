import type { ChannelErrorCode } from "../contracts/channels.ts";
import type { ErrorCode } from "../contracts/errors.ts";
import { HttpError } from "../http.ts";

/**
 * An HttpError with a channel code (contracts/channels.ts). The one place where channel codes
 * meet errors.ts's ErrorCode, until ERROR_CODES includes CHANNEL_ERROR_CODES.
 */
export function channelHttpError(status: number, code: ChannelErrorCode | ErrorCode, message: string): HttpError {
  return new HttpError(status, code as ErrorCode, message);
}

// What every platform adapter speaks: a verified delivery becomes either an
// immediate answer to the platform (a challenge, a PING, an acknowledgement) or
// an inbound message for the answering engine; the answer goes back through the
// adapter's `send`.

/** A refusal of a delivery: the status and code the receiver answers with, never an answer. */
export class ChannelError extends Error {
  constructor(
    readonly status: number,
    readonly code: ChannelErrorCode | ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A person's message on a platform, ready for the engine. */
export interface InboundMessage {
  /** The platform's id of this delivery (dedupe key): Slack event_id, Telegram update_id, ... */
  deliveryId: string;
  /** One conversation on the platform (a Slack thread, a Telegram chat, a WhatsApp number). */
  conversationKey: string;
  userId: string;
  chatId: string;
  threadId?: string;
  /** The text without the bot's mention. */
  text: string;
  /** "start": Telegram's /start, answered with the welcome text instead of the engine. */
  kind: "message" | "start";
  /** Whatever `send` needs to answer (Discord's interaction token, Telegram's message id). */
  replyTo: Record<string, string>;
}

/** The result of parsing a verified delivery. */
export type Parsed =
  | { kind: "respond"; status?: number; body: unknown; contentType?: string }
  | { kind: "message"; messages: InboundMessage[]; ack: { status?: number; body: unknown } }
  /** Nothing to answer; `stale` when every message in it is older than the platform allows (a replay). */
  | { kind: "ignore"; reason?: "stale" };

/** Where an adapter talks to its platform (env-configurable base URL) and how. */
export interface PlatformClient {
  baseUrl: string;
  fetch: typeof fetch;
}

/** A failure of the platform's API, with what the owner should read in the channel's status. */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The base URL for a platform: PARLEY_<NAME>_API_URL, or the vendor's. */
export function platformBaseUrl(envName: string, fallback: string): string {
  const v = Deno.env.get(envName)?.trim();
  return (v || fallback).replace(/\/+$/, "");
}

/**
 * Reads a platform's JSON answer as `T` (an all-optional description of the wire format:
 * every field is checked where it is used); a non-JSON body is a PlatformError.
 */
export async function platformJson<T extends object>(res: Response, platform: string): Promise<T> {
  const text = await res.text();
  try {
    const data = JSON.parse(text);
    return (data && typeof data === "object" ? data : {}) as T;
  } catch {
    throw new PlatformError(`${platform}_bad_response`, `${platform} answered HTTP ${res.status} without JSON`, res.status);
  }
}
