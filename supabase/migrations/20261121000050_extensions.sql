-- Extensions the migrations after this one use, created where they are needed rather
-- than assumed: a new hosted Supabase project has only pgcrypto, uuid-ossp (and
-- pg_stat_statements) in `extensions` until a migration creates more. pg_trgm is used
-- by 20261121010000_knowledge (trigram index, word_similarity in match_chunks).
-- btree_gin is created by 20261121011000_match_chunks_speed, vector (where available)
-- by 20261121010000_knowledge.
--
-- Creating pg_trgm also loads its library into the migrating connection, so its
-- settings (pg_trgm.word_similarity_threshold) are known to the later migrations of
-- the same push.

create extension if not exists pg_trgm with schema extensions;
