// Embeddings through an OpenAI-compatible /embeddings endpoint, when the team
// has an `openai` or `openai_compatible` key and the chunks table has an
// embedding column (pgvector, hosted Supabase). Otherwise ingestion skips them.
import type { SupabaseClient } from "npm:@supabase/supabase-js@2.119.1";
import type { Db } from "../clients.ts";
import { safeFetch } from "../safe-fetch.ts";

export const EMBEDDING_DIMENSIONS = 1536;

export interface EmbeddingConfig {
  url: string;
  apiKey: string | null;
  model: string;
  provider: string;
}

export function embeddingsUrl(baseUrl: string | null | undefined): string {
  const base = (baseUrl || "https://api.openai.com/v1").replace(/\/+$/, "");
  return /\/v\d+$/.test(base) ? `${base}/embeddings` : `${base}/v1/embeddings`;
}

let columnExists: boolean | undefined;

/** The column exists only where pgvector does, so it is not in the generated types: asked untyped. */
export async function hasEmbeddingColumn(service: SupabaseClient): Promise<boolean> {
  if (columnExists === undefined) {
    const { error } = await service.from("chunks").select("embedding").limit(1);
    columnExists = !error;
  }
  return columnExists;
}

export async function embeddingConfigForTeam(service: Db, teamId: string): Promise<EmbeddingConfig | null> {
  if (!(await hasEmbeddingColumn(service))) return null;
  return await embeddingProviderForTeam(service, teamId);
}

/**
 * The team's embeddings endpoint (its `openai` key first, else `openai_compatible`) whether or
 * not the chunks table can store vectors: for comparing two texts (the test runner's similarity).
 */
export async function embeddingProviderForTeam(service: Db, teamId: string): Promise<EmbeddingConfig | null> {
  const { data } = await service
    .from("team_provider_keys")
    .select("provider, api_key, base_url")
    .eq("team_id", teamId)
    .in("provider", ["openai", "openai_compatible"]);
  const key = (data ?? []).sort((a, b) => (a.provider === "openai" ? -1 : b.provider === "openai" ? 1 : 0))[0];
  if (!key || (key.provider === "openai" && !key.api_key)) return null;
  return {
    url: embeddingsUrl(key.base_url),
    apiKey: key.api_key,
    model: Deno.env.get("PARLEY_EMBEDDINGS_MODEL") || "text-embedding-3-small",
    provider: key.provider,
  };
}

/** One vector per input, or null when the provider failed or gave the wrong size (ingestion goes on without). */
export async function embedTexts(config: EmbeddingConfig, texts: string[], timeoutMs = 60_000): Promise<number[][] | null> {
  if (!texts.length) return [];
  try {
    const res = await safeFetch(config.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: config.model,
        input: texts,
        ...(config.provider === "openai" ? { dimensions: EMBEDDING_DIMENSIONS } : {}),
      }),
      timeoutMs,
      maxBytes: 64 * 1024 * 1024,
    });
    if (res.status !== 200) return null;
    const body = res.json<{ data?: { index: number; embedding: number[] }[] }>();
    const out: number[][] = [];
    for (const item of body.data ?? []) out[item.index] = item.embedding;
    if (out.length !== texts.length || out.some((v) => !Array.isArray(v) || v.length !== EMBEDDING_DIMENSIONS))
      return null;
    return out;
  } catch {
    return null;
  }
}
