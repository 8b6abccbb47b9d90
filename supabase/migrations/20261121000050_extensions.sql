-- Extensions the migrations after this one use, created where they are needed rather
-- than assumed: a new hosted Supabase project has only pgcrypto, uuid-ossp (and
-- pg_stat_statements) in `extensions` until a migration creates more. pg_trgm is used
-- by 20261121010000_knowledge (trigram index, word_similarity in match_chunks).
-- btree_gin is created by 20261121011000_match_chunks_speed, vector (where available)
-- by 20261121010000_knowledge.
--
-- 20261121010100 and 20261121011000 put pg_trgm's setting in a function's SET clause,
-- which hosted Supabase accepts from `postgres` only once pg_trgm's library is loaded
-- in the same connection. Creating the extension loads it; where it already existed
-- (a project that enabled it before this migration), calling one of its functions
-- does, so `supabase db push --include-all` on such a project gets past them.

create extension if not exists pg_trgm with schema extensions;

do $$
begin
  perform extensions.similarity('', '');
end
$$;
