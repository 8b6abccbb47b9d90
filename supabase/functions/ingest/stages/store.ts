// Stage 3: store a document a reader emitted. Hash the title and text (unchanged: skipped),
// chunk it (embedded where the team has an embeddings provider), then upsert the document with
// its hash, HTTP validators and download time and replace its chunks: in one call and one
// transaction (public.ingest_store_document) when it fits an RPC body, else in parts with the
// hash cleared until the chunks are in. A document has a hash only with its chunks complete, and
// a re-sync asks only about those.
import type { Db } from "../../_shared/clients.ts";
import type { Json, TablesInsert } from "../../_shared/database.types.ts";
import { must } from "../../_shared/db.ts";
import { sha256Hex } from "../../_shared/hash.ts";
import { chunkText } from "../../_shared/knowledge/chunk.ts";
import { embedTexts } from "../../_shared/knowledge/embeddings.ts";
import type { DocumentInput } from "../../_shared/knowledge/readers/types.ts";
import type { LoadedJob } from "./load.ts";

const MAX_CONTENT_CHARS = 2_000_000;
const CHUNK_BATCH = 200;
/**
 * The largest request body sent to public.ingest_store_document: the local stack's gateway refuses
 * RPC bodies over 64 KiB (PARLEY_MAX_RPC_BODY, stack/README.md), and PostgREST reads large RPC
 * arguments slowly. Longer documents are written in parts through the tables.
 */
const MAX_RPC_BODY_BYTES = 60 * 1024;

export type StoreResult = "stored" | "unchanged" | "empty";

export async function storeDocument(
  service: Db,
  loaded: LoadedJob,
  url: string,
  doc: DocumentInput,
): Promise<StoreResult> {
  const { source, existing, embedding } = loaded;
  const text = doc.text.replace(/\u0000/g, "").trim();
  if (!text) return "empty";
  const title = (doc.title || url).replace(/\s+/g, " ").trim().slice(0, 1000);
  const hash = await sha256Hex(`${title}\n${text}`);
  const http = {
    etag: doc.http?.etag ?? null,
    last_modified: doc.http?.lastModified ?? null,
    links: doc.http?.links ?? null,
    fetched_at: doc.http?.fetchedAt ?? null,
  };
  const navigation = doc.navigation ?? false;
  const before = existing.get(url);
  if (before?.content_hash === hash) {
    // same text under new validators (a server whose ETag changes with every deploy), a page the
    // sitemap dates (its lastmod is compared with fetched_at next time), or a page judged
    // navigation-only differently (indexed before the judgement existed): remember them
    if (
      before.etag !== http.etag ||
      before.last_modified !== http.last_modified ||
      !sameList(before.links, http.links) ||
      (doc.http?.sitemapLastmod && http.fetched_at) ||
      before.navigation !== navigation
    ) {
      const update = { ...http, navigation, fetched_at: http.fetched_at ?? before.fetched_at };
      must(await service.from("documents").update(update).eq("id", before.id), "save validators");
      existing.set(url, { ...before, ...update });
    }
    return "unchanged";
  }

  // chunks (and their embeddings) first, then the document with its hash and the chunks are written
  const chunks = chunkText(text, { title });
  const rows: ChunkRow[] = [];
  for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
    const batch = chunks.slice(i, i + CHUNK_BATCH);
    const vectors = embedding
      ? await embedTexts(
          embedding,
          batch.map((c) => `${c.heading_path}\n${c.content}`),
        )
      : null;
    for (const [j, c] of batch.entries()) {
      rows.push({
        position: c.position,
        heading_path: c.heading_path,
        content: c.content,
        token_count: c.token_count,
        // The embedding column exists only where pgvector does (hosted), so it is not in the generated types.
        ...(vectors ? { embedding: JSON.stringify(vectors[j]) } : {}),
      });
    }
  }
  const document = {
    data_source_id: source.id,
    bot_id: source.bot_id,
    title,
    url,
    language: doc.language ?? null,
    content_hash: hash,
    size_bytes: doc.sizeBytes ?? new TextEncoder().encode(text).byteLength,
    content: text.slice(0, MAX_CONTENT_CHARS),
    navigation,
    metadata: (doc.metadata ?? {}) as { [key: string]: Json | undefined },
    ...http,
  };
  const args = { p_document: document, p_chunks: rows as Json[] };
  // a page that fits an RPC body (most): one call and one transaction; a longer one in parts
  const id =
    new TextEncoder().encode(JSON.stringify(args)).byteLength <= MAX_RPC_BODY_BYTES
      ? must(await service.rpc("ingest_store_document", args), "save document")
      : await storeInParts(service, document, rows, !!before);
  existing.set(url, { id, content_hash: hash, ...http, navigation });
  return "stored";
}

type ChunkRow = Omit<TablesInsert<"chunks">, "document_id" | "bot_id">;

/**
 * A document too long for one RPC body: upsert it with its hash cleared (an interrupted write is
 * redone next time), replace its chunks through the table, then record the hash.
 */
async function storeInParts(
  service: Db,
  { content_hash, ...document }: TablesInsert<"documents">,
  rows: ChunkRow[],
  existed: boolean,
): Promise<string> {
  const saved = must(
    await service
      .from("documents")
      .upsert({ ...document, content_hash: null, status: "ready", error: null }, { onConflict: "data_source_id,url" })
      .select("id")
      .single(),
    "save document",
  );
  // a document new to this source has no chunks yet
  if (existed) must(await service.from("chunks").delete().eq("document_id", saved.id), "delete old chunks");
  for (let i = 0; i < rows.length; i += CHUNK_BATCH) {
    const batch = rows.slice(i, i + CHUNK_BATCH).map((r) => ({ ...r, document_id: saved.id, bot_id: document.bot_id }));
    must(await service.from("chunks").insert(batch), "insert chunks");
  }
  must(await service.from("documents").update({ content_hash }).eq("id", saved.id), "save hash");
  return saved.id;
}

const sameList = (a: string[] | null, b: string[] | null) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);
