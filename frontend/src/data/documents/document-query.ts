import { useQuery } from "@tanstack/react-query";
import type { Tables } from "../../lib/database";
import { unwrap } from "../../lib/errors";
import { jsonObject, type JsonObject } from "../../lib/json";
import { loadSupabase } from "../../lib/supabase-ready";
import type { DocumentRow } from "./documents-query";
import { documentKeys } from "./keys";

export type DocumentDetail = DocumentRow & Pick<Tables<"documents">, "content"> & { metadata: JsonObject };

/** One document with its extracted text, for previews. */
export async function fetchDocument(id: string): Promise<DocumentDetail | null> {
  const row = unwrap(
    await (await loadSupabase()).from("documents").select("id, data_source_id, title, url, language, size_bytes, status, error, updated_at, content, metadata").eq("id", id).maybeSingle(),
  );
  return row ? { ...row, metadata: jsonObject(row.metadata) } : null;
}

export function useDocumentQuery(id: string | null) {
  return useQuery({ queryKey: documentKeys.detail(id ?? ""), queryFn: () => fetchDocument(id!), enabled: !!id });
}
