import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { isLocaleCode, type LocaleCode } from "../../i18n/locales";
import { profileKeys } from "./keys";

export type Profile = Omit<Pick<Tables<"profiles">, "id" | "display_name" | "avatar_url" | "preferred_language">, "preferred_language"> & {
  preferred_language: LocaleCode;
};

export async function fetchMyProfile(): Promise<Profile | null> {
  const client = await loadSupabase();
  const { data: auth } = await client.auth.getSession();
  const uid = auth.session?.user.id;
  if (!uid) return null;
  const row = unwrap(await client.from("profiles").select("id, display_name, avatar_url, preferred_language").eq("id", uid).maybeSingle());
  // The column's check allows the ten locales only; anything else reads as English.
  return row ? { ...row, preferred_language: isLocaleCode(row.preferred_language) ? row.preferred_language : "en" } : null;
}

export function useMyProfileQuery() {
  return useQuery({ queryKey: profileKeys.me(), queryFn: fetchMyProfile });
}
