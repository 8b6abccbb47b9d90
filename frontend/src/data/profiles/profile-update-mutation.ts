import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AppError, refused, unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { profileKeys } from "./keys";
import type { Profile } from "./profile-query";

export type ProfilePatch = Partial<Pick<Profile, "display_name" | "avatar_url" | "preferred_language">>;

export async function updateMyProfile(patch: ProfilePatch): Promise<void> {
  const client = await loadSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) throw new AppError({ status: 401, code: "401", message: "Sign in first" });
  const rows = unwrap(await client.from("profiles").update(patch).eq("id", uid).select("id"));
  if (!rows?.length) throw refused("Your profile could not be saved");
}

export function useUpdateProfileMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateMyProfile, onSuccess: () => qc.invalidateQueries({ queryKey: profileKeys.all }) });
}
