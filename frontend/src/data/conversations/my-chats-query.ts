// Every chat the signed-in user had with any bot, newest activity first, with its first question.
import { useQuery } from "@tanstack/react-query";
import { toAppError } from "../teams/errors";
import { conversationKeys } from "./keys";
import { CHAT_COLUMNS, type ConversationSummary } from "./types";

export interface MyChat extends ConversationSummary {
  first_message: string | null;
}

export async function fetchMyChats(userId: string): Promise<MyChat[]> {
  const { getSupabase } = await import("../../lib/supabase");
  const db = getSupabase();
  const { data, error } = await db
    .from("chats")
    .select(CHAT_COLUMNS)
    .eq("user_id", userId)
    .order("last_message_at", { ascending: false, nullsFirst: false })
    .order("created_at", { ascending: false })
    .limit(200);
  if (error) throw toAppError(error);
  const chats = (data ?? []) as unknown as ConversationSummary[];
  const untitled = chats.filter((c) => !c.title).map((c) => c.id);
  const first = new Map<string, string>();
  if (untitled.length > 0) {
    const m = await db.from("messages").select("chat_id, content, created_at").in("chat_id", untitled).eq("role", "user").order("created_at", { ascending: true });
    if (m.error) throw toAppError(m.error);
    for (const r of (m.data ?? []) as { chat_id: string; content: string }[]) if (!first.has(r.chat_id)) first.set(r.chat_id, r.content);
  }
  // RLS shows bots rows to their team only; the face of another team's public bot comes from
  // get_public_bot (name and avatar, never its instructions).
  const faceless = [...new Set(chats.filter((c) => !c.bot).map((c) => c.bot_id))];
  const faces = new Map<string, ConversationSummary["bot"]>();
  await Promise.all(
    faceless.map(async (botId) => {
      const { data: rows } = await db.rpc("get_public_bot", { bot_id: botId });
      const row = (rows as { name: string; avatar_url: string | null }[] | null)?.[0];
      if (row) faces.set(botId, { name: row.name, avatar_url: row.avatar_url });
    }),
  );
  return chats.map((c) => ({ ...c, bot: c.bot ?? faces.get(c.bot_id) ?? null, first_message: first.get(c.id) ?? null }));
}

export function useMyChatsQuery(userId: string | undefined) {
  return useQuery({ queryKey: conversationKeys.mine(userId ?? "none"), queryFn: () => fetchMyChats(userId!), enabled: !!userId });
}
