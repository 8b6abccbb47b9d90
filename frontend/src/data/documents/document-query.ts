import { useQuery } from "@tanstack/react-query";
import { getSupabase } from "../../lib/supabase";
import { toAppError } from "../dataSources/types";
import type { DocumentRow } from "./documents-query";
import { documentKeys } from "./keys";

export interface DocumentDetail extends DocumentRow {
  content: string | null;
  metadata: Record<string, unknown>;
}

/** One document with its extracted text, for previews. */
export async function fetchDocument(id: string): Promise<DocumentDetail | null> {
  const { data, error } = await getSupabase()
    .from("documents")
    .select("id, data_source_id, title, url, language, size_bytes, status, error, updated_at, content, metadata")
    .eq("id", id)
    .maybeSingle();
  if (error) throw toAppError(error);
  return (data as DocumentDetail | null) ?? null;
}

export function useDocumentQuery(id: string | null) {
  return useQuery({ queryKey: documentKeys.detail(id ?? ""), queryFn: () => fetchDocument(id!), enabled: !!id });
}
