import { useQuery } from "@tanstack/react-query";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { botKeys } from "./keys";

export interface GalleryBot {
  id: string;
  name: string;
  description: string | null;
  avatar_url: string | null;
  language: string | null;
}

const COLUMNS = "id, name, description, avatar_url, language";

function toGalleryBot(row: { id: string; name: string; description: string | null; avatar_url: string | null; language: unknown }): GalleryBot {
  return { ...row, language: typeof row.language === "string" ? row.language : null };
}

// gallery_bots() gives the public face of listed bots only (bots rows are the team's).
export async function fetchGalleryBots(): Promise<GalleryBot[]> {
  const rows = unwrap(await (await loadSupabase()).rpc("gallery_bots").select(COLUMNS).order("name"));
  return (rows ?? []).map(toGalleryBot);
}

export async function fetchGalleryBot(id: string): Promise<GalleryBot | null> {
  const row = unwrap(await (await loadSupabase()).rpc("gallery_bots").select(COLUMNS).eq("id", id).maybeSingle());
  return row ? toGalleryBot(row) : null;
}

/** Postgres "undefined table/function" / PostgREST "not in schema cache": retrying cannot help. */
export function isMissingTable(error: unknown): boolean {
  const code = error && typeof error === "object" && "code" in error ? error.code : undefined;
  return code === "42P01" || code === "42883" || code === "PGRST205" || code === "PGRST202";
}

// Public pages: one retry for a flaky network, none when the table does not exist (yet).
const retryOnce = (failures: number, error: unknown) => failures < 1 && !isMissingTable(error);

export function useGalleryBotsQuery() {
  return useQuery({ queryKey: botKeys.gallery(), queryFn: fetchGalleryBots, retry: retryOnce });
}

export function useGalleryBotQuery(id: string) {
  return useQuery({ queryKey: botKeys.galleryDetail(id), queryFn: () => fetchGalleryBot(id), retry: retryOnce });
}
