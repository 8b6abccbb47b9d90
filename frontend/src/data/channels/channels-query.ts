import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { channelKeys } from "./keys";
import { CHANNEL_COLUMNS, toAppError, toChannel, type Channel } from "./types";

export async function fetchChannels(botId: string): Promise<Channel[]> {
  const { data, error } = await getSupabase().from("channels").select(CHANNEL_COLUMNS).eq("bot_id", botId).order("created_at");
  if (error) throw toAppError(error);
  return (data ?? []).map(toChannel);
}

/** The bot's channels (useLiveChannels keeps them current). */
export function useChannelsQuery(botId: string) {
  return useQuery({ queryKey: channelKeys.list(botId), queryFn: () => fetchChannels(botId) });
}

export async function fetchChannel(id: string): Promise<Channel | null> {
  const { data, error } = await getSupabase().from("channels").select(CHANNEL_COLUMNS).eq("id", id).maybeSingle();
  if (error) throw toAppError(error);
  return data && toChannel(data);
}

export function useChannelQuery(id: string) {
  return useQuery({ queryKey: channelKeys.detail(id), queryFn: () => fetchChannel(id) });
}
