import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { toAppError } from "../dataSources/types";
import { documentKeys } from "./keys";

export type DocumentStatus = "ready" | "error" | "skipped";

export interface DocumentRow {
  id: string;
  data_source_id: string;
  title: string;
  url: string;
  language: string | null;
  size_bytes: number;
  status: DocumentStatus;
  error: string | null;
  updated_at: string;
}

export const DOCUMENT_PAGE_SIZE = 200;
const COLUMNS = "id, data_source_id, title, url, language, size_bytes, status, error, updated_at";

/** Escapes PostgREST filter and LIKE wildcards so a search is literal. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/[,()]/g, " ")}%`;
}

export async function fetchDocuments(sourceId: string, search = ""): Promise<DocumentRow[]> {
  let q = getSupabase().from("documents").select(COLUMNS).eq("data_source_id", sourceId);
  const s = search.trim();
  if (s) q = q.or(`title.ilike.${likePattern(s)},url.ilike.${likePattern(s)}`);
  const { data, error } = await q.order("url").limit(DOCUMENT_PAGE_SIZE);
  if (error) throw toAppError(error);
  return (data ?? []) as DocumentRow[];
}

export function useDocumentsQuery(sourceId: string, search = "") {
  return useQuery({ queryKey: documentKeys.list(sourceId, search.trim()), queryFn: () => fetchDocuments(sourceId, search), placeholderData: keepPreviousData });
}
