// Stage 3: store a document a reader emitted. Hash the title and text (unchanged: skipped),
// chunk it (embedded where the team has an embeddings provider), then upsert the document with
// its hash, HTTP validators and download time and replace its chunks in one call and one
// transaction (public.ingest_store_document): a document has a hash only with its chunks complete,
// and a re-sync asks only about those.
import type { Db } from "../../_shared/clients.ts";
import type { Json } from "../../_shared/database.types.ts";
import { must } from "../../_shared/db.ts";
import { sha256Hex } from "../../_shared/hash.ts";
import { chunkText } from "../../_shared/knowledge/chunk.ts";
import { embedTexts } from "../../_shared/knowledge/embeddings.ts";
import type { DocumentInput } from "../../_shared/knowledge/readers/types.ts";
import type { LoadedJob } from "./load.ts";

const MAX_CONTENT_CHARS = 2_000_000;
const CHUNK_BATCH = 200;

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

  // chunks (and their embeddings) first: the document, its chunks and its hash are then written
  // in one call and one transaction (public.ingest_store_document), one round trip a page
  const chunks = chunkText(text, { title });
  const rows: Json[] = [];
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
        // The embedding column exists only where pgvector does (hosted); the function names it only then.
        ...(vectors ? { embedding: JSON.stringify(vectors[j]) } : {}),
      });
    }
  }
  const id = must(
    await service.rpc("ingest_store_document", {
      p_document: {
        data_source_id: source.id,
        bot_id: source.bot_id,
        title,
        url,
        language: doc.language ?? null,
        content_hash: hash,
        size_bytes: doc.sizeBytes ?? new TextEncoder().encode(text).byteLength,
        content: text.slice(0, MAX_CONTENT_CHARS),
        navigation,
        metadata: (doc.metadata ?? {}) as Json,
        ...http,
      },
      p_chunks: rows,
    }),
    "save document",
  );
  existing.set(url, { id, content_hash: hash, ...http, navigation });
  return "stored";
}

const sameList = (a: string[] | null, b: string[] | null) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b![i]);
