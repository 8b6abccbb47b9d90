-- match_chunks at 10,000 chunks per bot: trigram evidence on every call again,
-- without scoring every chunk. word_similarity(query, content) costs ~0.5 ms a
-- row (it builds the trigrams of a 1,000-character chunk), and a whole
-- question's trigrams occur in most chunks, so any plan that lets the database
-- recheck "query <% content" rechecks thousands of rows: seconds, index or not.
-- Now the trigram list ranks a bounded pool (at most ~300 chunks) by
-- word_similarity of the whole query, as before:
--   * the full-text top 50 (trigram proximity reorders what full text found);
--   * per query word (up to 8, stop words dropped, Japanese split at kana
--     particles): up to 30 chunks containing it (`ilike`, a cheap recheck), or,
--     for a word no chunk contains (a misspelling, a rare form), up to 30
--     chunks with a similar word (`word <% content`, threshold 0.5; 0.3 for the
--     `simple` languages jp, cn, pl whose runs of CJK text are long).
-- Both per-word lookups go through one GIN index on (bot_id, content trigrams)
-- (btree_gin), so the bot filter and the trigram filter are one index scan. The
-- old content-only trigram index is replaced by it. Full text is unchanged.
-- bench/ingest/REPORT.md and bench/chat/REPORT.md have the numbers.

create extension if not exists btree_gin with schema extensions;

create index if not exists chunks_bot_id_content_trgm_idx
  on public.chunks using gin (bot_id, content extensions.gin_trgm_ops);
drop index if exists public.chunks_content_trgm_idx;

create or replace function public.match_chunks(p_bot_id uuid, p_query text, p_match_count integer default 8)
returns table (
  chunk_id uuid,
  document_id uuid,
  data_source_id uuid,
  content text,
  heading_path text,
  document_title text,
  document_url text,
  score double precision
)
language plpgsql
stable
security definer
set search_path = ''
set pg_trgm.word_similarity_threshold = 0.5
set enable_seqscan = on
set enable_indexscan = on
as $$
declare
  v_config regconfig;
  v_any tsquery;
  v_web tsquery;
  v_fts uuid[] := '{}';
  v_trgm uuid[] := '{}';
  v_pool uuid[] := '{}';
  v_hits uuid[];
  v_terms text[];
  v_term text;
  v_count integer := least(greatest(coalesce(p_match_count, 8), 1), 50);
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
begin
  if v_query = '' or p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
  if v_config = 'pg_catalog.simple'::regconfig then
    perform set_config('pg_trgm.word_similarity_threshold', '0.3', true);
  end if;
  v_web := websearch_to_tsquery(v_config, v_query);
  -- any query word may match (questions rarely contain only words of the answer)
  select string_agg('''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery into v_any
  from unnest(tsvector_to_array(to_tsvector(v_config, v_query))) as l;

  if v_any is not null then
    select coalesce(array_agg(ranked.id order by ranked.rank desc, ranked.id), '{}') into v_fts
    from (
      select c.id, ts_rank_cd(c.fts, v_any, 32) + case when c.fts @@ v_web then 1 else 0 end as rank
      from public.chunks c
      where c.bot_id = p_bot_id and c.fts @@ v_any
      order by rank desc, c.id
      limit 50
    ) ranked;
  end if;

  -- Query words worth a trigram lookup: split at spaces, punctuation (ASCII,
  -- CJK, full width) and hiragana (Japanese particles and endings), stop words
  -- of the bot's language dropped, at least 3 ASCII or 2 other characters.
  select coalesce(array_agg(w.word order by w.pos), '{}') into v_terms
  from (
    select t.word, min(t.pos) as pos
    from regexp_split_to_table(lower(v_query), '[[:space:][:punct:]　-〿ぁ-ゟ！？（），．：；＿]+') with ordinality as t(word, pos)
    where char_length(t.word) >= case when octet_length(t.word) = char_length(t.word) then 3 else 2 end
      and char_length(t.word) <= 100
      and to_tsvector(v_config, t.word) <> ''::tsvector
    group by t.word
    order by min(t.pos)
    limit 8
  ) w;

  v_pool := v_fts;
  -- With `limit 30` the planner prefers walking the bot's rows (seq or btree
  -- scan) and filtering, which is one word_similarity per row until 30 pass:
  -- seconds when few do. Only the bitmap scan of the (bot_id, content) GIN
  -- index bounds the work, so it is the only plan left for these lookups (the
  -- SET clauses above scope these settings to this function).
  perform set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true);
  foreach v_term in array v_terms loop
    -- dynamic SQL: planned with the actual word
    execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
      || ' where c.bot_id = $1 and c.content ilike $2 limit 30) c'
      into v_hits
      using p_bot_id, '%' || replace(replace(replace(v_term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    if cardinality(v_hits) = 0 then
      execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
        || ' where c.bot_id = $1 and $2 operator(extensions.<%) c.content limit 30) c'
        into v_hits
        using p_bot_id, v_term;
    end if;
    v_pool := v_pool || v_hits;
  end loop;
  perform set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'on', true);

  select coalesce(array_agg(ranked.id order by ranked.sim desc, ranked.id), '{}') into v_trgm
  from (
    select c.id, extensions.word_similarity(v_query, c.content) as sim
    from public.chunks c
    where c.id = any (v_pool)
    order by sim desc, c.id
    limit 50
  ) ranked
  where ranked.sim >= 0.3;

  return query
  with lists as (
    select f.id, f.r from unnest(v_fts) with ordinality as f(id, r)
    union all
    select t.id, t.r from unnest(v_trgm) with ordinality as t(id, r)
  ),
  fused as (
    select lists.id, sum(1.0 / (60 + lists.r))::double precision as score
    from lists
    group by lists.id
  )
  select c.id, c.document_id, d.data_source_id, c.content, c.heading_path, d.title, d.url, f.score
  from fused f
  join public.chunks c on c.id = f.id
  join public.documents d on d.id = c.document_id
  order by f.score desc, c.id
  limit v_count;
end;
$$;
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query: full text in the bot''s language, and word similarity over a bounded pool (full-text hits plus per-word trigram lookups through the (bot_id, content) GIN index), fused by reciprocal rank. Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
