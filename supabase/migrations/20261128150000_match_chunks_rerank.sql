-- Retrieval, second stage (issue 17): match_chunks reranks its candidates, and navigation-only
-- pages are ranked down; web pages remember when they were downloaded (sitemap lastmod).
--
--   * documents.fetched_at: when the web reader last downloaded the page in full. A re-sync
--     skips a page whose sitemap <lastmod> is not newer (no request at all).
--   * documents.navigation: the web reader marks a page whose kept text is mostly link text (a
--     table of contents, an index, a link list; readers/html.ts isNavigation). Other readers
--     leave it false.
--   * private.match_chunk_candidates(bot, query): the first stage as before (full text top 50,
--     word similarity over the bounded trigram pool, fused by reciprocal rank) and, for each of
--     those at most 100 candidates, cheap lexical features: the share of the query's lexemes
--     (stemmed, stop words dropped) found in the chunk (heading path and text), in its heading
--     path, in the document's title; the share of the title's lexemes the query has; the page's
--     navigation flag; how many candidates share its document.
--   * public.match_chunks: same signature and columns; rows ordered by
--       30 × fused + 1 × title coverage + 2 × chunk coverage − 1 × navigation page
--     (weights fitted on the tune half of bench/ingest/questions.json, checked on the held-out
--     half: bench/ingest/REPORT.md). `score` is that value. The vector variant (hosted, pgvector)
--     calls this function for its lexical list and so gets the reranked order.
-- Deterministic, no model; the features cost one tsvector_to_array per candidate.

alter table public.documents
  add column navigation boolean not null default false,
  add column fetched_at timestamptz;
comment on column public.documents.navigation is
  'A navigation-only page (table of contents, index, link list), as the web reader judged it at ingest; match_chunks ranks its chunks down.';
comment on column public.documents.fetched_at is
  'When the web reader last downloaded the page in full; a re-sync does not request a page whose sitemap lastmod is not newer.';

create function private.match_chunk_candidates(p_bot_id uuid, p_query text)
returns table (
  chunk_id uuid,
  document_id uuid,
  fused double precision,
  fused_rank integer,
  body_cov double precision,
  head_cov double precision,
  title_cov double precision,
  title_share double precision,
  navigation boolean,
  doc_hits integer
)
language plpgsql
stable
security definer
set search_path = ''
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
  v_lex text[];
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
  v_threshold text := current_setting('pg_trgm.word_similarity_threshold', true);
begin
  if v_query = '' or p_bot_id is null then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
  perform set_config('pg_trgm.word_similarity_threshold',
    case when v_config = 'pg_catalog.simple'::regconfig then '0.3' else '0.5' end, true);
  v_web := websearch_to_tsquery(v_config, v_query);
  -- the query's lexemes in the order they first occur
  select coalesce(array_agg(t.lexeme order by t.pos), '{}') into v_lex
  from (select u.lexeme, min(p) as pos from unnest(to_tsvector(v_config, v_query)) u, unnest(u.positions) p group by u.lexeme) t;
  if cardinality(v_lex) > 0 then
    v_any := array_to_string(array(select quote_literal(l) from unnest(v_lex) l), ' | ')::tsquery;
  end if;

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
  perform set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true);
  foreach v_term in array v_terms loop
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
  ),
  cand as (
    select f.id, f.score, (row_number() over (order by f.score desc, f.id))::integer as r, c.fts, c.document_id,
      tsvector_to_array(c.fts) as body_lex,
      tsvector_to_array(to_tsvector(v_config, c.heading_path)) as head_lex,
      tsvector_to_array(to_tsvector(v_config, d.title)) as title_lex,
      d.navigation
    from fused f
    join public.chunks c on c.id = f.id
    join public.documents d on d.id = c.document_id
  )
  select k.id, k.document_id, k.score, k.r,
    coalesce((select count(*) from unnest(v_lex) l where l = any (k.body_lex))::double precision / nullif(cardinality(v_lex), 0), 0),
    coalesce((select count(*) from unnest(v_lex) l where l = any (k.head_lex))::double precision / nullif(cardinality(v_lex), 0), 0),
    coalesce((select count(*) from unnest(v_lex) l where l = any (k.title_lex))::double precision / nullif(cardinality(v_lex), 0), 0),
    coalesce((select count(*) from unnest(k.title_lex) l where l = any (v_lex))::double precision / nullif(cardinality(k.title_lex), 0), 0),
    k.navigation,
    (count(*) over (partition by k.document_id))::integer
  from cand k;
  perform set_config('pg_trgm.word_similarity_threshold', v_threshold, true);
end;
$$;
comment on function private.match_chunk_candidates(uuid, text) is
  'First-stage candidates of match_chunks (full text and trigram lists fused by reciprocal rank, at most 100) with the lexical features its rerank uses. No access check: callers check.';
revoke execute on function private.match_chunk_candidates(uuid, text) from public, anon, authenticated;

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
as $$
declare
  v_count integer := least(greatest(coalesce(p_match_count, 8), 1), 50);
begin
  if btrim(coalesce(p_query, '')) = '' or p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
    return;
  end if;
  return query
  select c.id, c.document_id, d.data_source_id, c.content, c.heading_path, d.title, d.url, m.score
  from (
    select k.chunk_id, k.fused_rank,
      30 * k.fused + 1 * k.title_cov + 2 * k.body_cov - case when k.navigation then 1 else 0 end as score
    from private.match_chunk_candidates(p_bot_id, p_query) k
  ) m
  join public.chunks c on c.id = m.chunk_id
  join public.documents d on d.id = c.document_id
  order by m.score desc, m.fused_rank
  limit v_count;
end;
$$;
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query: full text in the bot''s language and word similarity over a bounded pool, fused by reciprocal rank, then reranked by query-term coverage of the chunk and its title, navigation-only pages down. Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
