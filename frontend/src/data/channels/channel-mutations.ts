import { useMutation, useQueryClient } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { channelKeys } from "./keys";
import { CHANNEL_COLUMNS, toAppError, toChannel, type Channel, type ChannelSettings, type ChannelType } from "./types";

export interface NewChannel {
  botId: string;
  type: ChannelType;
  name: string;
}

export async function createChannel(input: NewChannel): Promise<Channel> {
  const supabase = getSupabase();
  const { data: auth } = await supabase.auth.getSession();
  const { data, error } = await supabase
    .from("channels")
    .insert({ bot_id: input.botId, type: input.type, name: input.name.trim(), created_by: auth.session?.user.id })
    .select(CHANNEL_COLUMNS)
    .single();
  if (error) throw toAppError(error);
  return toChannel(data);
}

export function useCreateChannelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    onSuccess: (_c, v) => qc.invalidateQueries({ queryKey: channelKeys.list(v.botId) }),
  });
}

export interface ChannelPatch {
  id: string;
  botId: string;
  name?: string;
  enabled?: boolean;
  settings?: ChannelSettings;
}

export async function updateChannel({ id, botId: _botId, ...patch }: ChannelPatch): Promise<void> {
  const { error } = await getSupabase().from("channels").update(patch).eq("id", id);
  if (error) throw toAppError(error);
}

export function useUpdateChannelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateChannel,
    onSuccess: (_r, v) => Promise.all([
      qc.invalidateQueries({ queryKey: channelKeys.detail(v.id) }),
      qc.invalidateQueries({ queryKey: channelKeys.list(v.botId) }),
    ]),
  });
}

export async function deleteChannel({ id }: { id: string; botId: string }): Promise<void> {
  const { error } = await getSupabase().from("channels").delete().eq("id", id);
  if (error) throw toAppError(error);
}

export function useDeleteChannelMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteChannel,
    onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: channelKeys.list(v.botId) }),
  });
}

/** Stores secrets through set_channel_credentials (merged; an empty value removes one). */
export async function setChannelCredentials({ id, credentials }: { id: string; credentials: Record<string, string | null> }): Promise<void> {
  const { error } = await getSupabase().rpc("set_channel_credentials", { channel_id: id, credentials });
  if (error) throw toAppError(error);
}

export function useSetChannelCredentialsMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setChannelCredentials,
    onSuccess: (_r, v) => qc.invalidateQueries({ queryKey: channelKeys.credentials(v.id) }),
  });
}
