// Every chat the signed-in user had with any bot, newest activity first, with its first question.
import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { chatKeys } from "./keys";
import { CHAT_COLUMNS, toConversationSummary, type ConversationSummary } from "./types";

export interface MyChat extends ConversationSummary {
  first_message: string | null;
}

export async function fetchMyChats(userId: string): Promise<MyChat[]> {
  const db = await loadSupabase();
  const rows = unwrap(
    await db.from("chats").select(CHAT_COLUMNS).eq("user_id", userId).order("last_message_at", { ascending: false, nullsFirst: false }).order("created_at", { ascending: false }).limit(200),
  );
  const chats = (rows ?? []).map(toConversationSummary);
  const untitled = chats.filter((c) => !c.title).map((c) => c.id);
  const first = new Map<string, string>();
  if (untitled.length > 0) {
    const m = unwrap(await db.from("messages").select("chat_id, content, created_at").in("chat_id", untitled).eq("role", "user").order("created_at", { ascending: true }));
    for (const r of m ?? []) if (!first.has(r.chat_id)) first.set(r.chat_id, r.content);
  }
  // RLS shows bots rows to their team only; the face of another team's public bot comes from
  // get_public_bot (name and avatar, never its instructions).
  const faceless = [...new Set(chats.filter((c) => !c.bot).map((c) => c.bot_id))];
  const faces = new Map<string, ConversationSummary["bot"]>();
  await Promise.all(
    faceless.map(async (botId) => {
      const { data: rows } = await db.rpc("get_public_bot", { bot_id: botId });
      const row = rows?.[0];
      if (row) faces.set(botId, { name: row.name, avatar_url: row.avatar_url });
    }),
  );
  return chats.map((c) => ({ ...c, bot: c.bot ?? faces.get(c.bot_id) ?? null, first_message: first.get(c.id) ?? null }));
}

export function useMyChatsQuery(userId: string | undefined) {
  return useQuery({ queryKey: chatKeys.mine(userId ?? "none"), queryFn: () => fetchMyChats(userId!), enabled: !!userId });
}
