// `chat`: answers a visitor's message with the bot's knowledge.
//   POST /functions/v1/chat  {bot_id, chat_id?, message, images?: [{path}], channel?}  (contracts/chat.ts)
// as the caller (a signed-in or anonymous user). This handler only routes and frames: the
// answering engine (_shared/engine) checks the limits, stores the turn as the caller (RLS
// decides), retrieves, generates and stores the answer. Streams Server-Sent Events (meta,
// token, sources, done | error), or with `Accept: application/json` answers once.
import { requireUserId, requireVerifiedCaller } from "../_shared/caller.ts";
import { createUserClient, type Db } from "../_shared/clients.ts";
import { jsonAnswer, sseAnswer, startAnswer } from "../_shared/engine/index.ts";
import { clientIp, handler, HttpError, readJson } from "../_shared/http.ts";
import { chatRequestSchema } from "./schema.ts";

// The caller's client, kept for the caller's next messages: supabase-js builds its auth, storage,
// functions and realtime parts in createClient (~1-2 ms of CPU under load, issue 17), and a
// visitor sends several messages with the same token. The client holds nothing but the token's
// Authorization header (no session, no refresh), so it answers exactly as a new one would.
const USER_CLIENTS = 256;
const userClients = new Map<string, Db>();

function userClient(req: Request): Db {
  const key = req.headers.get("Authorization") ?? "";
  let client = userClients.get(key);
  if (client) userClients.delete(key); // most recently used last
  else client = createUserClient(req);
  userClients.set(key, client);
  if (userClients.size > USER_CLIENTS) userClients.delete(userClients.keys().next().value!);
  return client;
}

Deno.serve(
  handler("chat", async (req, { log }) => {
    const startedAt = performance.now();
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const userId = await requireUserId(req, "Sign in (an anonymous session is enough) to chat");
    const parsed = chatRequestSchema.safeParse(await readJson(req, 32 * 1024));
    if (!parsed.success) {
      throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request", parsed.error.issues);
    }
    const body = parsed.data;
    const abort = new AbortController();
    const answer = await startAnswer({
      botId: body.bot_id,
      message: body.message,
      images: body.images?.map((i) => i.path),
      conversation: { kind: "visitor", client: userClient(req), userId, ip: clientIp(req), chatId: body.chat_id, channel: body.channel },
      signal: abort.signal,
      log,
      startedAt,
    });

    const accept = req.headers.get("accept") ?? "";
    if (/application\/json/i.test(accept) && !/text\/event-stream/i.test(accept)) return await jsonAnswer(answer);
    return sseAnswer(answer, () => abort.abort(new DOMException("The visitor left", "AbortError")));
  }, { verifyCaller: requireVerifiedCaller }),
);
