import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { LocaleCode } from "../../i18n/locales";
import { toAppError } from "../teams/errors";
import { profileKeys } from "./keys";

export interface Profile {
  id: string;
  display_name: string | null;
  avatar_url: string | null;
  preferred_language: LocaleCode;
}

export async function fetchMyProfile(): Promise<Profile | null> {
  const { getSupabase } = await import("../../lib/supabase");
  const client = getSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) return null;
  const { data, error } = await client.from("profiles").select("id, display_name, avatar_url, preferred_language").eq("id", uid).maybeSingle();
  if (error) throw toAppError(error);
  return (data as Profile | null) ?? null;
}

export type ProfilePatch = Partial<Pick<Profile, "display_name" | "avatar_url" | "preferred_language">>;

export async function updateMyProfile(patch: ProfilePatch): Promise<void> {
  const { getSupabase } = await import("../../lib/supabase");
  const client = getSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) throw toAppError({ message: "Sign in first", code: "401" });
  const { data, error } = await client.from("profiles").update(patch).eq("id", uid).select("id");
  if (error) throw toAppError(error);
  if (!data?.length) throw toAppError({ message: "Your profile could not be saved", code: "42501" });
}

export function useMyProfileQuery() {
  return useQuery({ queryKey: profileKeys.me(), queryFn: fetchMyProfile });
}

export function useUpdateProfileMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateMyProfile, onSuccess: () => qc.invalidateQueries({ queryKey: profileKeys.all }) });
}
