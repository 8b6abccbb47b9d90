// Retrieval for one question: match_chunks under the visitor's token (RLS decides what they
// may search). Where the database has pgvector (hosted Supabase) and the team has an
// embeddings provider, the question is embedded and match_chunks adds its vector ranking to
// the full-text and trigram ones; without either, or when embedding fails, it runs on text.
import type { Db } from "../clients.ts";
import type { Logger } from "../log.ts";
import { embeddingConfigForTeam, embedTexts } from "../knowledge/embeddings.ts";

/** A question's embedding must not hold the answer up for long: text retrieval still works. */
const QUERY_EMBEDDING_TIMEOUT_MS = 5_000;

export async function retrieve(
  service: Db,
  user: Db,
  bot: { id: string; team_id: string },
  question: string,
  matchCount: number,
  log: Logger,
) {
  const args = { p_bot_id: bot.id, p_query: question, p_match_count: matchCount };
  const config = await embeddingConfigForTeam(service, bot.team_id).catch(() => null);
  const vector = config ? (await embedTexts(config, [question], QUERY_EMBEDDING_TIMEOUT_MS))?.[0] : undefined;
  if (vector) {
    const res = await user.rpc("match_chunks", { ...args, p_query_embedding: JSON.stringify(vector) });
    if (!res.error) return res;
    log.warn("vector_retrieval_failed", { code: res.error.code, error: res.error.message });
  }
  return user.rpc("match_chunks", args);
}
