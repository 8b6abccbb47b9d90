-- Retrieval quality (issue 17): a page's coverage of the question. Each candidate passage now also
-- scores its page's coverage: the IDF-weighted share of the query's lexemes that the page's
-- candidate passages and its title hold *together* (`page_cov`, 0..1, the same for every passage
-- of a page), added with weight 1 to the rule of 20261128180000_match_chunks_bm25:
--
--   score = bm25 + proximity + chunk share + title share + 0.25 × ln(page's candidates) + trigram
--           + page coverage − navigation page
--
-- Why: a visitor's question names a subject and asks something about it; the page that answers
-- it usually holds the subject's words in its title or its first passage and the asked-about
-- words in other passages. Passage scores alone let a page whose passages repeat some of the
-- question's words (in headings, weighed 5 times) beat the page that holds all of them across its
-- passages: "configure client authentication in pg_hba.conf with scram-sha-256" found the SCRAM
-- section of sasl-authentication first (80 % of the query's IDF, in every passage) and the
-- pg_hba.conf page second (all of it). This is document-level aggregation in its simplest form: a page's
-- evidence is the union of its passages' evidence, not the sum (many weak passages of one page do
-- not add up: a word counts once per page) nor only the best passage. The weight is the natural
-- one (the same scale as chunk and title share), not fitted: bench/ingest/REPORT.md, "Page
-- coverage", has the numbers on the tune and the held-out half.
--
-- Cost: one `@@` per (candidate, lexeme) for the title that was tested three times before is
-- tested once, the chunk match twice → once; a bit per lexeme found (`found`, bigint: at most 12
-- lexemes plus 2 stand-ins each), OR-ed over the page by the window that already counted the
-- page's candidates, and one sum over the query's lexemes per candidate. Same signatures for
-- match_chunks; match_chunk_candidates gains the column `page_cov` (dropped and created again:
-- a new result column), same access rule (no client may call it), grants, generic plans, and the
-- same deterministic order (ties by url and position).

drop function private.match_chunk_candidates(uuid, text);

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
  doc_hits integer,
  bm25 double precision,
  proximity double precision,
  trgm double precision,
  url text,
  chunk_position integer,
  page_cov double precision
)
language plpgsql
stable
security definer
set search_path = ''
set plan_cache_mode = force_generic_plan
rows 60
as $$
declare
  v_config regconfig;
  v_n double precision;
  v_avgdl double precision;
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
  v_qlex text[];
  v_qdf integer[];
  v_lex text[];
  v_idf double precision[];
  v_k integer;
  v_rest text[];
  v_total double precision;
  v_any tsquery;
  v_best uuid[];
  v_best_w double precision[];
  v_entries integer;
  v_pool uuid[] := '{}';
  v_terms text[];
  v_setting text;
  v_lookup boolean := false;
  v_tq tsquery[];
  v_all tsquery;
  v_two tsquery;
begin
  if v_query = '' or p_bot_id is null then
    return;
  end if;
  select private.language_regconfig(b.language), greatest(coalesce(s.chunks, 0), 0),
    greatest(coalesce(s.lexemes::double precision / greatest(s.chunks, 1), 1), 1)
  into v_config, v_n, v_avgdl
  from public.bots b left join private.bot_chunk_stats s on s.bot_id = b.id
  where b.id = p_bot_id;
  if v_config is null then
    return;
  end if;

  -- the query's first 12 lexemes and their document frequencies, in the order they occur
  select coalesce(array_agg(q.lexeme order by q.pos), '{}'), coalesce(array_agg(coalesce(b.chunks, 0) order by q.pos), '{}')
  into v_qlex, v_qdf
  from (select u.lexeme, min(p) as pos from unnest(to_tsvector(v_config, v_query)) u, unnest(u.positions) p
        group by u.lexeme order by min(p) limit 12) q
  left join private.bot_lexemes b on b.bot_id = p_bot_id and b.lexeme = q.lexeme;

  -- one no chunk holds (a misspelling, another inflection) is replaced by up to two of the bot's
  -- lexemes that look like it (trigram similarity >= 0.4) not already taken; then rarest first
  if exists (select 1 from unnest(v_qlex, v_qdf) r(lexeme, df) where r.df <= 0 and char_length(r.lexeme) >= 4) then
    v_lookup := true;
    v_setting := current_setting('pg_trgm.similarity_threshold', true);
    perform set_config('pg_trgm.similarity_threshold', '0.4', true);
  end if;
  with r as (
    select r.lexeme, r.df, r.ord from unnest(v_qlex, v_qdf) with ordinality r(lexeme, df, ord)
  ),
  e as (
    select r.ord, 0::bigint as sub, r.lexeme, r.df, ln(1 + (v_n - r.df + 0.5) / (r.df + 0.5)) as idf
    from r where r.df > 0
    union all
    select r.ord, s.sub, s.lexeme, s.df, s.sim * ln(1 + (v_n - s.df + 0.5) / (s.df + 0.5))
    from r cross join lateral (
      select b.lexeme, b.chunks as df, extensions.similarity(b.lexeme, r.lexeme) as sim,
        row_number() over (order by extensions.similarity(b.lexeme, r.lexeme) desc, b.lexeme) as sub
      from private.bot_lexemes b
      where b.bot_id = p_bot_id and b.lexeme operator(extensions.%) r.lexeme
      order by sim desc, b.lexeme
      limit 2
    ) s
    where r.df <= 0 and char_length(r.lexeme) >= 4
  ),
  l as (
    select e.lexeme, e.df, e.idf, row_number() over (order by e.df, e.lexeme) as i
    from e
    where e.sub = 0 or not exists (select 1 from e o where o.lexeme = e.lexeme and (o.ord, o.sub) < (e.ord, e.sub))
  ),
  s as (
    select l.*, sum(l.df) over (order by l.i) as cum from l
  )
  select coalesce(array_agg(s.lexeme order by s.i), '{}'), coalesce(array_agg(s.idf order by s.i), '{}'),
    count(*) filter (where s.cum <= 800), coalesce(array_agg(s.lexeme order by s.i) filter (where s.cum > 800), '{}'),
    coalesce(sum(s.idf order by s.i), 0), coalesce(array_agg(quote_literal(s.lexeme)::tsquery order by s.i), '{}')
  into v_lex, v_idf, v_k, v_rest, v_total, v_tq
  from s;
  if v_lookup then
    perform set_config('pg_trgm.similarity_threshold', v_setting, true);
  end if;
  if cardinality(v_lex) > 1 then
    -- proximity counts two different lexemes near each other (pairs of the five rarest): a
    -- chunk repeating one common query word is no cover
    select string_agg('(' || quote_literal(a.l) || ' & ' || quote_literal(b.l) || ')', ' | ')::tsquery into v_any
    from unnest(v_lex[1:5]) with ordinality a(l, i) join unnest(v_lex[1:5]) with ordinality b(l, i) on a.i < b.i;
  elsif cardinality(v_lex) = 1 then
    v_any := quote_literal(v_lex[1])::tsquery;
  end if;

  -- 1. every chunk holding one of the v_k rarest lexemes (their frequencies sum to <= 800);
  -- 2. for the rest: up to 200 chunks holding all of them, else the two rarest of them;
  -- each (lexeme, chunk) found weighs the lexeme's IDF, summed in lexeme order
  if cardinality(v_rest) > 0 then
    v_all := array_to_string(array(select quote_literal(x) from unnest(v_rest) x), ' & ')::tsquery;
    if cardinality(v_rest) > 2 then
      v_two := (quote_literal(v_rest[1]) || ' & ' || quote_literal(v_rest[2]))::tsquery;
    end if;
  end if;
  with l as (
    select l.lexeme, l.idf, l.tq, l.i from unnest(v_lex, v_idf, v_tq) with ordinality l(lexeme, idf, tq, i)
  ),
  rest as (
    select coalesce(
      nullif(array(select c.id from public.chunks c where c.bot_id = p_bot_id and c.fts @@ v_all limit 200), '{}'),
      case when v_two is not null then array(select c.id from public.chunks c where c.bot_id = p_bot_id and c.fts @@ v_two limit 200) end) as ids
    where v_all is not null
  ),
  hits as (
    select l.i, l.idf, h.id
    from l cross join lateral (
      select c.id from public.chunks c where c.bot_id = p_bot_id and c.fts @@ l.tq limit 800
    ) h
    where l.i <= v_k
    union all
    select l.i, l.idf, h.id
    from rest cross join unnest(rest.ids) h(id) join l on l.lexeme = any (v_rest)
  ),
  found as (
    select hits.id, sum(hits.idf order by hits.i) as w from hits group by hits.id
  ),
  best as (
    select found.id, found.w from found order by found.w desc, found.id limit 60
  )
  select coalesce(array_agg(best.id order by best.w desc, best.id), '{}'), coalesce(array_agg(best.w order by best.w desc, best.id), '{}'),
    (select count(*) from hits)
  into v_best, v_best_w, v_entries
  from best;

  -- 3. trigrams, where they pay: simple-configuration bots (jp, cn, pl), or full text found little
  if v_config = 'pg_catalog.simple'::regconfig or v_entries < 10 then
    select coalesce(array_agg(w.word order by w.pos), '{}') into v_terms
    from (
      select t.word, min(t.pos) as pos
      from regexp_split_to_table(lower(v_query), '[[:space:][:punct:]　-〿ぁ-ゟ！？（），．：；＿]+') with ordinality as t(word, pos)
      where char_length(t.word) >= case when octet_length(t.word) = char_length(t.word) then 3 else 2 end
        and char_length(t.word) <= 100
        and to_tsvector(v_config, t.word) <> ''::tsvector
      group by t.word
      order by min(t.pos)
      limit 6
    ) w;
    v_setting := current_setting('pg_trgm.word_similarity_threshold', true);
    perform set_config('pg_trgm.word_similarity_threshold',
      case when v_config = 'pg_catalog.simple'::regconfig then '0.3' else '0.5' end, true);
    select coalesce(array_agg(x.id order by t.i, x.n), '{}') into v_pool
    from unnest(v_terms) with ordinality t(term, i)
    cross join lateral unnest(coalesce(
      nullif(array(select c.id from public.chunks c
        where c.bot_id = p_bot_id and c.content ilike '%' || replace(replace(replace(t.term, '\', '\\'), '%', '\%'), '_', '\_') || '%'
        limit 10), '{}'),
      array(select c.id from public.chunks c where c.bot_id = p_bot_id and t.term operator(extensions.<%) c.content limit 10)
    )) with ordinality x(id, n);
    perform set_config('pg_trgm.word_similarity_threshold', v_setting, true);
  end if;

  return query
  with best as (
    select b.id, b.w from unnest(v_best, v_best_w) as b(id, w)
  ),
  pool as (
    select p.id, extensions.word_similarity(v_query, c.content)::double precision as sim
    from (select distinct x as id from unnest(v_pool) x) p
    join public.chunks c on c.id = p.id
  ),
  cand as materialized (
    select coalesce(b.id, p.id) as id, coalesce(b.w, 0) as w, coalesce(p.sim, 0) as sim,
      c.document_id, c.position, (array[c.fts])[1] as fts, d.url, d.title, d.navigation
    from best b
    full join pool p on p.id = b.id
    join public.chunks c on c.id = coalesce(b.id, p.id)
    join public.documents d on d.id = c.document_id
  ),
  q as materialized (
    select l.idf, l.tq, (quote_literal(l.lexeme) || ':A')::tsquery as tq_head, 1::bigint << (l.i::integer - 1) as bit, l.i
    from unnest(v_lex, v_idf, v_tq) with ordinality as l(lexeme, idf, tq, i)
  ),
  docs as materialized (
    select k.document_id, to_tsvector(v_config, min(k.title)) as tv from cand k group by k.document_id
  ),
  scored as (
    select k.*, dc.tv,
      -- per lexeme: IDF × ts_rank of that lexeme alone (saturating in its occurrences, a heading
      -- occurrence weighing 5 times a text one), over BM25's chunk-length normalisation (b 0.75)
      f.bm / (0.25 + 0.75 * length(k.fts) / v_avgdl) as bm, f.cov, f.head, f.tcov, f.tmatch, f.found
    from cand k
    join docs dc on dc.document_id = k.document_id
    cross join lateral (
      select coalesce(sum(x.idf * ts_rank(array[0.1, 0.2, 0.2, 1.0]::real[], k.fts, x.tq)), 0) as bm,
        coalesce(sum(x.idf) filter (where x.in_chunk), 0) as cov,
        coalesce(sum(x.idf) filter (where x.in_chunk and k.fts @@ x.tq_head), 0) as head,
        coalesce(sum(x.idf) filter (where x.in_title), 0) as tcov,
        count(*) filter (where x.in_title) as tmatch,
        -- which of the query's lexemes the chunk or its page's title holds (bit i-1: lexeme i)
        coalesce(bit_or(x.bit) filter (where x.in_chunk or x.in_title), 0) as found
      -- each match tested once (offset 0 keeps the subquery, so its columns are not re-evaluated
      -- in every aggregate that reads them)
      from (select q.idf, q.tq, q.tq_head, q.bit, k.fts @@ q.tq as in_chunk, dc.tv @@ q.tq as in_title from q offset 0) x
    ) f
  )
  select t.id, t.document_id,
    (t.w + t.sim)::double precision,
    t.fused_rank::integer,
    coalesce(t.cov / nullif(v_total, 0), 0)::double precision,
    coalesce(t.head / nullif(v_total, 0), 0)::double precision,
    coalesce(t.tcov / nullif(v_total, 0), 0)::double precision,
    coalesce(t.tmatch::double precision / nullif(length(t.tv), 0), 0)::double precision,
    t.navigation,
    t.doc_hits::integer,
    coalesce(t.bm / nullif(v_total, 0), 0)::double precision,
    case when v_any is null or not t.fts @@ v_any then 0 else ts_rank_cd(t.fts, v_any, 32) end::double precision,
    t.sim,
    t.url,
    t.position,
    -- page coverage: the share of the query (IDF-weighted) that the page's candidate passages and
    -- its title hold together (summed in q's order, the lexeme order: a materialized CTE is read in
    -- the order it was written, so no sort per row)
    coalesce((select sum(q.idf) from q where q.bit & t.page_found <> 0) / nullif(v_total, 0), 0)::double precision
  from (
    select s.*, row_number() over (order by s.w + s.sim desc, s.url, s.position) as fused_rank,
      count(*) over p as doc_hits, bit_or(s.found) over p as page_found
    from scored s
    window p as (partition by s.document_id)
  ) t;
end;
$$;

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
    select k.chunk_id, k.url, k.chunk_position,
      1 * k.bm25 + 1 * k.proximity + 1 * k.body_cov + 1 * k.title_cov + 0.25 * ln(k.doc_hits) + 1 * k.trgm + 1 * k.page_cov
        - case when k.navigation then 1 else 0 end as score
    from private.match_chunk_candidates(p_bot_id, p_query) k
    order by score desc, k.url, k.chunk_position
    limit v_count
  ) m
  join public.chunks c on c.id = m.chunk_id
  join public.documents d on d.id = c.document_id
  order by m.score desc, m.url, m.chunk_position;
end;
$$;
comment on function private.match_chunk_candidates(uuid, text) is
  'Candidates of match_chunks (rarest query lexemes first, capped; trigram pool for simple-configuration bots or when full text finds little; at most 60 + 60) with the features its rule scores: BM25, proximity, IDF-weighted coverage of chunk, heading, title and page (the page''s candidates and title together), navigation. Generic plans (no per-call planning). No access check: callers check.';
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query: candidates from the query''s rarest lexemes (capped) and, for simple-configuration bots or few matches, trigrams; scored by BM25 with per-bot document frequencies, proximity, coverage of the chunk, its heading and title, and the page''s coverage of the query (its passages and title together); navigation-only pages down. Empty when the caller may not chat with the bot.';
revoke execute on function private.match_chunk_candidates(uuid, text) from public, anon, authenticated;
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
