// Retrieval for one question: match_chunks under the visitor's token (RLS decides what they
// may search). Where the database has pgvector (hosted Supabase) and the team has an
// embeddings provider, the question is embedded and match_chunks adds its vector ranking to
// the full-text and trigram ones; without either, or when embedding fails, it runs on text.
//
// At most PARLEY_RETRIEVAL_CONCURRENCY (default 8) retrievals of this worker run at once; the
// rest wait their turn here, first come first served. Retrieval is the one long statement of an
// answer (tens to hundreds of ms of CPU at 10,000 chunks): with 200 visitors writing at once
// (bench/chat/load.mjs, issue 17) their retrievals held all of the API's connections
// (PostgREST's pool: 10) and the answers' short statements (limits, the turn, the answer) waited
// for one without order, up to PostgREST's 10 s timeout (503). Eight leave room for those.
import type { Db } from "../clients.ts";
import type { Logger } from "../log.ts";
import { type EmbeddingConfig, embeddingConfigForTeam, embedTexts } from "../knowledge/embeddings.ts";
import { FifoSlots } from "./slots.ts";

/** A question's embedding must not hold the answer up for long: text retrieval still works. */
const QUERY_EMBEDDING_TIMEOUT_MS = 5_000;

const retrievalSlots = new FifoSlots("PARLEY_RETRIEVAL_CONCURRENCY", 8);

/** The team's embeddings provider for questions, or null: retrieval on text alone. */
export function retrievalEmbedding(service: Db, teamId: string): Promise<EmbeddingConfig | null> {
  return embeddingConfigForTeam(service, teamId).catch(() => null);
}

export async function retrieve(
  service: Db,
  user: Db,
  bot: { id: string; team_id: string },
  question: string,
  matchCount: number,
  log: Logger,
  /** The team's embeddings provider when the caller looked it up already (null: none). */
  known?: EmbeddingConfig | null,
) {
  const args = { p_bot_id: bot.id, p_query: question, p_match_count: matchCount };
  const config = known !== undefined ? known : await retrievalEmbedding(service, bot.team_id);
  const vector = config ? (await embedTexts(config, [question], QUERY_EMBEDDING_TIMEOUT_MS))?.[0] : undefined;
  return await retrievalSlots.run(async () => {
    if (vector) {
      const res = await user.rpc("match_chunks", { ...args, p_query_embedding: JSON.stringify(vector) });
      if (!res.error) return res;
      log.warn("vector_retrieval_failed", { code: res.error.code, error: res.error.message });
    }
    return await user.rpc("match_chunks", args);
  });
}
