// `transcript`: downloads a chat as text or Markdown.
//   GET /functions/v1/transcript?chat_id=<uuid>&format=txt|md&lang=<en|de|...>
// Labelled in ?lang= (the visitor's language; else Accept-Language, else English).
// As the caller: their own chats and their bots' chats through RLS; a shared
// chat through get_shared_chat (anyone with the link). 404 when not visible.
import { z } from "npm:zod@3.25.76";
import { requireVerifiedCaller } from "../_shared/caller.ts";
import { createUserClient } from "../_shared/clients.ts";
import { corsHeaders } from "../_shared/cors.ts";
import { TRANSCRIPT_FORMATS, type TranscriptQuery } from "../_shared/contracts/transcript.ts";
import { dbFailure } from "../_shared/db.ts";
import { handler, HttpError } from "../_shared/http.ts";
import {
  contentDisposition,
  type Transcript,
  transcriptLabels,
  transcriptLanguage,
  type TranscriptMessage,
  toMarkdown,
  toText,
} from "./format.ts";

const querySchema = z.object({
  chat_id: z.string().uuid("chat_id must be a chat id"),
  format: z.enum(TRANSCRIPT_FORMATS).default("txt"),
}) satisfies z.ZodType<TranscriptQuery, z.ZodTypeDef, unknown>;

interface SharedChat {
  chat: { id: string; bot_id: string; title: string | null; created_at: string };
  bot: { name: string; show_powered_by: boolean };
  messages: TranscriptMessage[];
}

async function load(user: ReturnType<typeof createUserClient>, chatId: string): Promise<SharedChat | null> {
  const own = await user
    .from("chats")
    .select("id, bot_id, title, created_at, messages(role, content, created_at, sources, actions)")
    .eq("id", chatId)
    .order("created_at", { referencedTable: "messages", ascending: true })
    .maybeSingle();
  // 42501: the anon role may not read chats at all; that is "not visible", not a failure.
  if (own.error && own.error.code !== "PGRST116" && own.error.code !== "42501")
    throw dbFailure(own.error, "chat");
  if (own.data) {
    // The bot's face: public/password bots through get_public_bot; a team's private bot through bots (RLS).
    const face = await user.rpc("get_public_bot", { bot_id: own.data.bot_id });
    let bot = (Array.isArray(face.data) ? face.data[0] : face.data) as
      { name: string; show_powered_by: boolean } | undefined;
    if (!bot) {
      const row = await user.from("bots").select("name, show_powered_by").eq("id", own.data.bot_id).maybeSingle();
      bot = row.data ?? { name: "Bot", show_powered_by: true };
    }
    return { chat: own.data, bot, messages: (own.data.messages ?? []) as TranscriptMessage[] };
  }
  const shared = await user.rpc("get_shared_chat", { chat_id: chatId });
  if (shared.error) {
    if (shared.error.code === "42501") return null;
    throw dbFailure(shared.error, "get_shared_chat");
  }
  return (shared.data as SharedChat | null) ?? null;
}

Deno.serve(
  handler("transcript", async (req) => {
    if (req.method !== "GET") throw new HttpError(405, "method_not_allowed", "Use GET");
    const url = new URL(req.url);
    const q = querySchema.safeParse({
      chat_id: url.searchParams.get("chat_id") ?? undefined,
      format: url.searchParams.get("format") ?? undefined,
    });
    if (!q.success)
      throw new HttpError(400, "invalid_request", q.error.issues[0]?.message ?? "Invalid request", q.error.issues);

    const data = await load(createUserClient(req), q.data.chat_id);
    if (!data) throw new HttpError(404, "chat_not_found", "Chat not found");

    const lang = transcriptLanguage(url.searchParams.get("lang"), req.headers.get("accept-language"));
    const labels = transcriptLabels(lang);
    const title = data.bot.show_powered_by ? labels.poweredBy : labels.ofBot.replace("{bot}", data.bot.name);
    const transcript: Transcript = {
      lang,
      title,
      botName: data.bot.name,
      chatTitle: data.chat.title,
      createdAt: data.chat.created_at,
      messages: data.messages,
    };
    const md = q.data.format === "md";
    const filename = `${data.bot.name} chat ${data.chat.created_at.slice(0, 10)}`;
    return new Response(md ? toMarkdown(transcript) : toText(transcript), {
      headers: {
        ...corsHeaders,
        "Content-Type": md ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8",
        "Content-Disposition": contentDisposition(filename, md ? "md" : "txt"),
        "Access-Control-Expose-Headers": "Content-Disposition",
        "Cache-Control": "no-store",
      },
    });
  }, { verifyCaller: requireVerifiedCaller }),
);
