import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { loadSupabase } from "../../lib/supabase-ready";
import { documentKeys } from "./keys";

export type DocumentStatus = Tables<"documents">["status"];

export type DocumentRow = Pick<Tables<"documents">, "id" | "data_source_id" | "title" | "url" | "language" | "size_bytes" | "status" | "error" | "updated_at">;

export const DOCUMENT_PAGE_SIZE = 200;
const COLUMNS = "id, data_source_id, title, url, language, size_bytes, status, error, updated_at";

/** Escapes PostgREST filter and LIKE wildcards so a search is literal. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/[,()]/g, " ")}%`;
}

export async function fetchDocuments(sourceId: string, search = ""): Promise<DocumentRow[]> {
  let q = (await loadSupabase()).from("documents").select(COLUMNS).eq("data_source_id", sourceId);
  const s = search.trim();
  if (s) q = q.or(`title.ilike.${likePattern(s)},url.ilike.${likePattern(s)}`);
  return unwrap(await q.order("url").limit(DOCUMENT_PAGE_SIZE)) ?? [];
}

export function useDocumentsQuery(sourceId: string, search = "") {
  return useQuery({ queryKey: documentKeys.list(sourceId, search.trim()), queryFn: () => fetchDocuments(sourceId, search), placeholderData: keepPreviousData });
}
