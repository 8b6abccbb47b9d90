import { useQuery } from "@tanstack/react-query";
import { loadSupabase } from "../../lib/supabase-ready";
import { IMAGE_BUCKET } from "./chat-image-upload";
import { chatKeys } from "./keys";

/** How long a thumbnail's link works; the query is fresh for a little less. */
const LINK_SECONDS = 3600;

/**
 * Signed links to images of a chat turn, by path; null for an image the viewer may not read
 * (storage RLS: the visitor's own folder, or the bot's team), such as a shared chat's images.
 */
export async function fetchChatImageUrls(paths: readonly string[]): Promise<Record<string, string | null>> {
  const { data, error } = await (await loadSupabase()).storage.from(IMAGE_BUCKET).createSignedUrls([...paths], LINK_SECONDS);
  const urls: Record<string, string | null> = Object.fromEntries(paths.map((p) => [p, null]));
  if (error || !data) return urls;
  for (const item of data) if (item.path && item.signedUrl && !item.error) urls[item.path] = item.signedUrl;
  return urls;
}

export function useChatImageUrlsQuery(paths: readonly string[]) {
  return useQuery({
    queryKey: chatKeys.imageUrls(paths),
    queryFn: () => fetchChatImageUrls(paths),
    enabled: paths.length > 0,
    staleTime: (LINK_SECONDS - 300) * 1000,
    retry: false,
  });
}
