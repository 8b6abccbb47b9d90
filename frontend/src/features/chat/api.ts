// Calls to the chat engine's edge functions (chat, bot-login, transcript) with the
// visitor's own session, so Postgres's policies decide access.
import { getConfig } from "../../lib/config";
import { getSupabase } from "../../lib/supabase";
import { readChatStream, type ChatStreamEvent } from "./sse";

export class ChatApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ChatApiError";
  }
}

async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const { data } = await getSupabase().auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new ChatApiError(401, "session_required", "No session");
  return { apikey: getConfig().supabaseAnonKey, authorization: `Bearer ${token}`, ...extra };
}

async function failure(res: Response): Promise<ChatApiError> {
  let code = `http_${res.status}`;
  let message = res.statusText;
  let retryAfter: number | undefined;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string; details?: { retry_after?: number } } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
    retryAfter = body.error?.details?.retry_after;
  } catch {
    /* not JSON: keep the status */
  }
  const header = Number(res.headers.get("retry-after"));
  return new ChatApiError(res.status, code, message, retryAfter ?? (Number.isFinite(header) && header > 0 ? header : undefined));
}

export interface SendInput {
  botId: string;
  chatId?: string;
  message: string;
  images?: string[];
  channel?: "web" | "widget";
  signal?: AbortSignal;
}

/** Sends a message; yields the answer's events as they stream in. */
export async function* sendChatMessage(input: SendInput): AsyncGenerator<ChatStreamEvent> {
  const res = await fetch(`${getConfig().apiBaseUrl}/chat`, {
    method: "POST",
    headers: await headers({ "content-type": "application/json", accept: "text/event-stream" }),
    body: JSON.stringify({
      bot_id: input.botId,
      chat_id: input.chatId,
      message: input.message,
      images: input.images?.length ? input.images.map((path) => ({ path })) : undefined,
      channel: input.channel,
    }),
    signal: input.signal,
  });
  if (!res.ok) throw await failure(res);
  if (!res.body) throw new ChatApiError(502, "empty_stream", "The answer stream was empty");
  yield* readChatStream(res.body);
}

export async function botLogin(botId: string, password: string): Promise<void> {
  const res = await fetch(`${getConfig().apiBaseUrl}/bot-login`, {
    method: "POST",
    headers: await headers({ "content-type": "application/json" }),
    body: JSON.stringify({ bot_id: botId, password }),
  });
  if (!res.ok) throw await failure(res);
}

/** Fetches the transcript (the token is a header, so no plain link) and saves it. */
export async function downloadTranscript(chatId: string, format: "txt" | "md"): Promise<void> {
  const res = await fetch(`${getConfig().apiBaseUrl}/transcript?chat_id=${encodeURIComponent(chatId)}&format=${format}`, { headers: await headers() });
  if (!res.ok) throw await failure(res);
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `chat.${format}`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
