// Stage 1: open or create the chat and store the user's turn, in one transaction
// (public.open_chat_turn): a visitor's turn as the visitor (RLS decides whether they may use
// the bot) with a one-time pass the engine issues after the visitor's limits, a channel's turn
// as the service side by the platform's conversation id. The bot's per-minute budget is spent
// there, after the access check, only for those two. A refused turn stores nothing.
import type { Db } from "../clients.ts";
import type { Json } from "../database.types.ts";
import { dbFailure, type DbError, isSessionInvalid, sessionInvalid } from "../db.ts";
import { HttpError, rateLimited } from "../http.ts";
import { botUnavailableMessage } from "../billing-messages.ts";
import type { LoadedImage } from "./images.ts";
import type { ChannelConversation, VisitorConversation } from "./types.ts";

export interface OpenedTurn {
  chatId: string;
  userMessageId: string;
  /** The chat was created with this turn (no history to load). */
  created: boolean;
  /** A person has taken the chat over: the bot stays quiet. */
  needsHuman: boolean;
  /** The chat's latest turns before this one, newest first (an existing chat, read with the turn as its opener). */
  historyRows: HistoryRow[];
  /** With `matchCount`: the bot's best passages for the stored text, found in the same call as the
   * turn's opener (open_chat_turn_and_match), as a separate match_chunks request would give them;
   * undefined when a person has taken the chat over (nothing is retrieved then). */
  retrieved?: Retrieved;
}

/** match_chunks' rows, or why it failed (the turn stays stored). */
export interface Retrieved {
  data: unknown[] | null;
  error: { code: string; message: string } | null;
}

/** Why the caller may not use the bot: 403 password_required for a password bot, 404 otherwise. */
async function accessError(user: Db, botId: string): Promise<HttpError> {
  const { data } = await user.rpc("get_public_bot", { bot_id: botId });
  const face = (Array.isArray(data) ? data[0] : data) as { visibility?: string } | undefined;
  if (face?.visibility === "password") {
    return new HttpError(403, "password_required", "This bot is password-protected. Enter its password first.");
  }
  return new HttpError(404, "bot_not_found", "Bot not found");
}

async function refusal(error: DbError, client: Db, botId: string): Promise<Error> {
  if (error.code === "42501") return await accessError(client, botId);
  if (isSessionInvalid(error)) return sessionInvalid();
  if (error.code === "PT404") {
    return error.hint === "chat_not_found"
      ? new HttpError(404, "chat_not_found", "Chat not found")
      : new HttpError(404, "bot_not_found", "Bot not found");
  }
  if (error.code === "PT402" && error.details === "messages_per_month") {
    // The team's monthly message quota (billing): visitors and channels get a polite refusal in
    // the bot's language; the owners are e-mailed by the billing tick.
    return new HttpError(429, "quota_exceeded", await unavailableText(client, botId));
  }
  if (error.code === "PT402") {
    // Another plan limit (the API on a plan without it): the owners' business, said as such.
    return new HttpError(402, "plan_limit", error.message, { limit: error.details });
  }
  if (error.code === "PT429") {
    // The bot's budget (detail: seconds left) or the database's own per-user insert limit.
    const wait = Number(error.details);
    return rateLimited(Number.isInteger(wait) && wait > 0 ? wait : 60, error.message);
  }
  return dbFailure(error, "open_chat_turn");
}

/** "Not available right now", in the bot's language (English when it cannot be read). */
async function unavailableText(client: Db, botId: string): Promise<string> {
  const { data } = await client.rpc("get_public_bot", { bot_id: botId });
  const face = (Array.isArray(data) ? data[0] : data) as { language?: string } | undefined;
  return botUnavailableMessage(face?.language ?? "en");
}

function toTurn(data: unknown, withPassages: boolean): OpenedTurn {
  const row = (Array.isArray(data) ? data[0] : data) as
    | {
      opened_chat_id: string;
      user_message_id: string;
      created: boolean;
      needs_human: boolean;
      history: HistoryRow[] | null;
      passages?: unknown[] | null;
      retrieval_error?: string | null;
    }
    | undefined;
  if (!row) throw new Error("open_chat_turn returned no row");
  const needsHuman = row.needs_human === true;
  return {
    chatId: row.opened_chat_id,
    userMessageId: row.user_message_id,
    created: row.created,
    needsHuman,
    historyRows: row.history ?? [],
    retrieved: withPassages && !needsHuman ? retrievedOf(row.passages ?? null, row.retrieval_error ?? null) : undefined,
  };
}

/** `retrieval_error` is `<sqlstate>: <message>`. */
function retrievedOf(passages: unknown[] | null, failure: string | null): Retrieved {
  if (failure === null) return { data: passages ?? [], error: null };
  const at = failure.indexOf(": ");
  return { data: null, error: at > 0 ? { code: failure.slice(0, at), message: failure.slice(at + 2) } : { code: "", message: failure } };
}

export async function openVisitorTurn(
  botId: string,
  message: string,
  images: LoadedImage[],
  conversation: VisitorConversation,
  /** Issued with the visitor's limits (stage 0, start_chat_turn): open_chat_turn spends the bot's
   * budget for it. A visitor calling open_chat_turn directly has no pass and spends nothing of the
   * owner's budget (migration 20261123001100). */
  pass: string | null,
  /** How many earlier turns to return with it (the engine's history). */
  historyLimit: number,
  /** Also retrieve this many passages for the message, in the same call (as the visitor). */
  matchCount?: number,
): Promise<OpenedTurn> {
  const args = {
    bot_id: botId,
    content: message,
    chat_id: conversation.chatId,
    images: images.map(({ path, mime, size }) => ({ path, mime, size })) as Json,
    channel: conversation.channel ?? "web",
    turn_pass: pass ?? undefined,
    history_limit: historyLimit,
  };
  const { data, error } = matchCount
    ? await conversation.client.rpc("open_chat_turn_and_match", { ...args, match_count: matchCount })
    : await conversation.client.rpc("open_chat_turn", args);
  if (error) throw await refusal(error, conversation.client, botId);
  return toTurn(data, !!matchCount);
}

export async function openChannelTurn(
  service: Db,
  botId: string,
  message: string,
  conversation: ChannelConversation,
  historyLimit: number,
  /** Also retrieve this many passages for the message, in the same call (as the service side). */
  matchCount?: number,
): Promise<OpenedTurn> {
  const args = {
    bot_id: botId,
    content: message,
    channel: conversation.channel,
    external_thread_id: conversation.externalThreadId,
    external_user_id: conversation.externalUserId,
    history_limit: historyLimit,
  };
  const { data, error } = matchCount
    ? await service.rpc("open_chat_turn_and_match", { ...args, match_count: matchCount })
    : await service.rpc("open_chat_turn", args);
  if (error) throw await refusal(error, service, botId);
  return toTurn(data, !!matchCount);
}

export type HistoryRow = { id: string; role: string; content: string; error: string | null };

/** Earlier turns of the chat (open_chat_turn's, newest first), oldest first, without the new turn and without failed or empty answers. */
export function history(
  rows: HistoryRow[],
  exceptMessageId: string,
  limit: number,
): { role: "user" | "assistant"; content: string }[] {
  return rows
    .filter((t) => t.id !== exceptMessageId)
    .slice(0, limit)
    .reverse()
    .filter((t) => !t.error && t.content.trim() && (t.role === "user" || t.role === "assistant"))
    .map((t) => ({ role: t.role as "user" | "assistant", content: t.content }));
}
