-- Retrieval, third pass (issue 17): match_chunks scores BM25-style, with IDF from per-bot lexeme document
-- frequencies, generates its candidates from the query's rarest lexemes with a cap, and reads
-- trigrams only where they pay. Same signature, columns, access rule and grants.
--
-- Why: Postgres' ts_rank / ts_rank_cd know no IDF (in "how many bytes does a bigint use" the
-- rare "bigint" weighed what "use" weighed), and the previous first stage ranked every chunk
-- matching any query lexeme (5,182 of 10,958 for one question), scanned a bot's rows per query
-- word with `ilike`, and ran word_similarity over a pool of up to 290 chunks: 100-250 ms a call
-- at 11k chunks (bench/chat/results-explain.md).
--
--   * private.bot_lexemes (bot, lexeme, chunks): in how many of the bot's chunks each lexeme of
--     `chunks.fts` occurs; private.bot_chunk_stats (bot, chunks, lexemes): the chunk count and the
--     sum of their lexeme counts (average chunk length). Kept exact by statement-level triggers
--     on chunks (insert, delete, update of the text) with transition tables: one grouped upsert
--     per statement, rows locked in (bot, lexeme) order so concurrent writers cannot deadlock.
--     RLS on, no policies, no grants: only these definer functions read them.
--   * chunks_bot_id_fts_idx: GIN on (bot_id, fts) (btree_gin) replaces the fts-only index, so a
--     lexeme lookup visits only this bot's rows, whatever other bots hold.
--   * private.match_chunk_candidates(bot, query): the query's first 12 lexemes with their IDF
--     = ln(1 + (N - df + 0.5) / (df + 0.5)) (N: the bot's chunks; df: its chunks holding the
--     lexeme). A lexeme no chunk holds (a misspelling, another inflection) is replaced by up to
--     two of the bot's lexemes with trigram similarity >= 0.4 (GIN trigram index on the
--     vocabulary), their IDF times the similarity. Candidates, rarest lexemes first:
--       1. every chunk holding one of the rarest lexemes, taken while their document frequencies
--          sum to <= 800 (a complete set for those lexemes, bounded by construction);
--       2. for the lexemes too common for that: up to 200 chunks holding all of them, and, when
--          none does, up to 200 holding the two rarest of them (the worst case: a question of
--          words most chunks hold);
--       3. for `simple` bots (jp, cn, pl: no stemmer; a CJK run is one "word") or when 1-2 found
--          fewer than 10 hits: up to 10 chunks per query word (at most 6) containing it (`ilike`
--          on the (bot_id, content) trigram index), else similar to it (`<%`), scored by
--          word_similarity of the whole query (at most 60 rows).
--     The chunks of 1-2 are ordered by the summed IDF of the lexemes they were found by (from the
--     id lists alone, no chunk read); the best 60 (and the pool of 3) get their features:
--       bm25: per query lexeme, IDF × ts_rank of that lexeme alone (saturating in its occurrences;
--         weights {D 0.1, C 0.2, B 0.2, A 1}: a heading-path occurrence weighs 5 times a text
--         one), over BM25's length normalisation (0.25 + 0.75 × lexemes ÷ the bot's average),
--         ÷ the query's summed IDF;
--       proximity: ts_rank_cd (÷ 1 + itself) of the pairs of the five rarest lexemes, so two
--         different query words near each other count and one common word repeated does not;
--       the IDF-weighted share of the query in the chunk, in its heading path, in the document
--       title; the share of the title the query covers; the navigation flag; how many
--       candidates share the document; the trigram similarity (pool of 3 only).
--   * public.match_chunks: rows ordered by
--       bm25 + proximity + chunk share + title share + 0.25 × ln(candidates of the document)
--       + trigram similarity − 1 for a navigation-only page,
--     fitted on the tune half of bench/ingest/questions.json (bench/ingest/tune.mjs, coordinate
--     ascent over a coarse grid), checked on the held-out half (bench/ingest/REPORT.md); ties by
--     document url and chunk position, so results repeat. `score` is that value.
-- Every step is bounded by a cap (800 ids, 200 + 200 rows, 6 × 10 rows, 60 + 60 scored), not by
-- how many chunks match. The lookups run as dynamic SQL, planned with the lexeme known (a cached
-- generic plan would scan the bot's rows). The vector variant (hosted, pgvector) calls
-- match_chunks for its lexical list and is unchanged.

-- per-bot lexeme statistics ----------------------------------------------------------------------
create table private.bot_lexemes (
  bot_id uuid not null,
  lexeme text not null,
  chunks integer not null,
  primary key (bot_id, lexeme)
);
comment on table private.bot_lexemes is
  'Document frequency of each lexeme of chunks.fts per bot (how many of the bot''s chunks hold it), kept by triggers on chunks; match_chunks'' IDF and its vocabulary for misspelt words.';
create index bot_lexemes_trgm_idx on private.bot_lexemes using gin (bot_id, lexeme extensions.gin_trgm_ops);
alter table private.bot_lexemes enable row level security;
revoke all on private.bot_lexemes from public, anon, authenticated;

create table private.bot_chunk_stats (
  bot_id uuid primary key,
  chunks integer not null,
  lexemes bigint not null
);
comment on table private.bot_chunk_stats is
  'Per bot: how many chunks it has and the sum of their lexeme counts (BM25''s average chunk length), kept by triggers on chunks.';
alter table private.bot_chunk_stats enable row level security;
revoke all on private.bot_chunk_stats from public, anon, authenticated;

-- The lexemes of a statement's new rows (+1 a chunk) and old rows (-1 a chunk). Transition tables
-- exist only for their own event, hence one trigger per event and one branch per event here.
create function private.count_chunk_lexemes() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- rows locked in key order (an upsert takes them in its select's order): writers never deadlock
  if tg_op = 'INSERT' then
    insert into private.bot_lexemes as b (bot_id, lexeme, chunks)
    select n.bot_id, l.lexeme, count(*) from new_rows n, unnest(tsvector_to_array(n.fts)) l(lexeme)
    group by 1, 2 order by 1, 2
    on conflict (bot_id, lexeme) do update set chunks = b.chunks + excluded.chunks;
    insert into private.bot_chunk_stats as s (bot_id, chunks, lexemes)
    select n.bot_id, count(*), sum(length(n.fts)) from new_rows n group by 1 order by 1
    on conflict (bot_id) do update set chunks = s.chunks + excluded.chunks, lexemes = s.lexemes + excluded.lexemes;
  elsif tg_op = 'DELETE' then
    insert into private.bot_lexemes as b (bot_id, lexeme, chunks)
    select o.bot_id, l.lexeme, -count(*) from old_rows o, unnest(tsvector_to_array(o.fts)) l(lexeme)
    group by 1, 2 order by 1, 2
    on conflict (bot_id, lexeme) do update set chunks = b.chunks + excluded.chunks;
    delete from private.bot_lexemes b where b.chunks <= 0
      and (b.bot_id, b.lexeme) in (select distinct o.bot_id, l.lexeme from old_rows o, unnest(tsvector_to_array(o.fts)) l(lexeme));
    insert into private.bot_chunk_stats as s (bot_id, chunks, lexemes)
    select o.bot_id, -count(*), -sum(length(o.fts)) from old_rows o group by 1 order by 1
    on conflict (bot_id) do update set chunks = s.chunks + excluded.chunks, lexemes = s.lexemes + excluded.lexemes;
  elsif exists (select 1 from new_rows n join old_rows o on o.id = n.id where o.fts is distinct from n.fts) then
    -- an update that changes the text (one that sets an embedding changes nothing here)
    insert into private.bot_lexemes as b (bot_id, lexeme, chunks)
    select x.bot_id, x.lexeme, sum(x.n) from (
      select n.bot_id, l.lexeme, 1 as n from new_rows n, unnest(tsvector_to_array(n.fts)) l(lexeme)
      union all
      select o.bot_id, l.lexeme, -1 from old_rows o, unnest(tsvector_to_array(o.fts)) l(lexeme)
    ) x
    group by 1, 2 having sum(x.n) <> 0 order by 1, 2
    on conflict (bot_id, lexeme) do update set chunks = b.chunks + excluded.chunks;
    delete from private.bot_lexemes b where b.chunks <= 0
      and (b.bot_id, b.lexeme) in (select distinct o.bot_id, l.lexeme from old_rows o, unnest(tsvector_to_array(o.fts)) l(lexeme));
    insert into private.bot_chunk_stats as s (bot_id, chunks, lexemes)
    select x.bot_id, sum(x.n), sum(x.len) from (
      select n.bot_id, 1 as n, length(n.fts)::bigint as len from new_rows n
      union all
      select o.bot_id, -1, -length(o.fts)::bigint from old_rows o
    ) x
    group by 1 order by 1
    on conflict (bot_id) do update set chunks = s.chunks + excluded.chunks, lexemes = s.lexemes + excluded.lexemes;
  end if;
  return null;
end;
$$;
comment on function private.count_chunk_lexemes() is
  'Statement trigger on chunks: adds the lexemes of inserted rows to, and takes those of deleted rows from, private.bot_lexemes and private.bot_chunk_stats (an update does both).';
revoke execute on function private.count_chunk_lexemes() from public, anon, authenticated;
create trigger chunks_count_lexemes_insert after insert on public.chunks
  referencing new table as new_rows for each statement execute function private.count_chunk_lexemes();
create trigger chunks_count_lexemes_delete after delete on public.chunks
  referencing old table as old_rows for each statement execute function private.count_chunk_lexemes();
create trigger chunks_count_lexemes_update after update on public.chunks
  referencing new table as new_rows old table as old_rows for each statement execute function private.count_chunk_lexemes();

-- the statistics of the chunks that exist already
insert into private.bot_lexemes (bot_id, lexeme, chunks)
select c.bot_id, l.lexeme, count(*) from public.chunks c, unnest(tsvector_to_array(c.fts)) l(lexeme) group by 1, 2;
insert into private.bot_chunk_stats (bot_id, chunks, lexemes)
select c.bot_id, count(*), sum(length(c.fts)) from public.chunks c group by 1;

-- a lexeme lookup visits only the bot's rows
create index chunks_bot_id_fts_idx on public.chunks using gin (bot_id, fts);
drop index public.chunks_fts_idx;

-- candidates and their features ------------------------------------------------------------------
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
  chunk_position integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_config regconfig;
  v_n double precision;
  v_avgdl double precision;
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
  v_lex text[] := '{}';      -- the query's lexemes (and stand-ins for unknown ones), rarest first
  v_df integer[] := '{}';
  v_idf double precision[] := '{}';
  v_total double precision;
  v_any tsquery;
  v_ids uuid[] := '{}';      -- candidate ids, one entry per (lexeme, chunk) found ...
  v_w double precision[] := '{}'; -- ... with that lexeme's IDF
  v_hits uuid[];
  v_sum integer := 0;
  v_rest text[] := '{}';
  v_pool uuid[] := '{}';
  v_terms text[];
  v_term text;
  v_sim_threshold text := current_setting('pg_trgm.similarity_threshold', true);
  v_wsim_threshold text := current_setting('pg_trgm.word_similarity_threshold', true);
  r record;
  v_sub record;
  i integer;
begin
  if v_query = '' or p_bot_id is null then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
  if v_config is null then
    return;
  end if;
  select s.chunks, s.lexemes::double precision / greatest(s.chunks, 1) into v_n, v_avgdl
  from private.bot_chunk_stats s where s.bot_id = p_bot_id;
  v_n := greatest(coalesce(v_n, 0), 0);
  v_avgdl := greatest(coalesce(v_avgdl, 1), 1);

  -- the query's first 12 lexemes; one no chunk holds (a misspelling, another inflection) is
  -- replaced by up to two of the bot's lexemes that look like it (trigram similarity >= 0.4)
  perform set_config('pg_trgm.similarity_threshold', '0.4', true);
  for r in
    select q.lexeme, coalesce(b.chunks, 0) as df
    from (select u.lexeme, min(p) as pos from unnest(to_tsvector(v_config, v_query)) u, unnest(u.positions) p
          group by u.lexeme order by min(p) limit 12) q
    left join private.bot_lexemes b on b.bot_id = p_bot_id and b.lexeme = q.lexeme
  loop
    if r.df > 0 then
      v_lex := v_lex || r.lexeme;
      v_df := v_df || r.df;
      v_idf := v_idf || ln(1 + (v_n - r.df + 0.5) / (r.df + 0.5));
    elsif char_length(r.lexeme) >= 4 then
      for v_sub in
        select b.lexeme, b.chunks as df, extensions.similarity(b.lexeme, r.lexeme) as sim
        from private.bot_lexemes b
        where b.bot_id = p_bot_id and b.lexeme operator(extensions.%) r.lexeme
        order by sim desc, b.lexeme
        limit 2
      loop
        if not v_sub.lexeme = any (v_lex) then
          v_lex := v_lex || v_sub.lexeme;
          v_df := v_df || v_sub.df;
          v_idf := v_idf || v_sub.sim * ln(1 + (v_n - v_sub.df + 0.5) / (v_sub.df + 0.5));
        end if;
      end loop;
    end if;
  end loop;
  perform set_config('pg_trgm.similarity_threshold', v_sim_threshold, true);
  select coalesce(array_agg(l.lexeme order by l.df, l.lexeme), '{}'), coalesce(array_agg(l.df order by l.df, l.lexeme), '{}'),
    coalesce(array_agg(l.idf order by l.df, l.lexeme), '{}')
  into v_lex, v_df, v_idf
  from unnest(v_lex, v_df, v_idf) as l(lexeme, df, idf);
  v_total := coalesce((select sum(x) from unnest(v_idf) x), 0);
  if cardinality(v_lex) > 1 then
    -- proximity counts two different lexemes near each other (pairs of the five rarest): a
    -- chunk repeating one common query word is no cover
    select string_agg('(' || quote_literal(a.l) || ' & ' || quote_literal(b.l) || ')', ' | ')::tsquery into v_any
    from unnest(v_lex[1:5]) with ordinality a(l, i) join unnest(v_lex[1:5]) with ordinality b(l, i) on a.i < b.i;
  elsif cardinality(v_lex) = 1 then
    v_any := quote_literal(v_lex[1])::tsquery;
  end if;

  -- 1. every chunk holding one of the rarest lexemes, while their frequencies sum to <= 800
  for i in 1 .. cardinality(v_lex) loop
    if v_sum + v_df[i] > 800 then
      v_rest := v_rest || v_lex[i];
      continue;
    end if;
    v_sum := v_sum + v_df[i];
    -- dynamic SQL: planned with the lexeme known (a cached generic plan scans the bot's rows)
    execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
      || ' where c.bot_id = $1 and c.fts @@ $2 limit 800) c'
      into v_hits using p_bot_id, quote_literal(v_lex[i])::tsquery;
    v_ids := v_ids || v_hits;
    v_w := v_w || array_fill(v_idf[i], array[cardinality(v_hits)]);
  end loop;
  -- 2. the lexemes too common for that: up to 200 chunks holding all of them, else the two rarest
  if cardinality(v_rest) > 0 then
    execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
      || ' where c.bot_id = $1 and c.fts @@ $2 limit 200) c'
      into v_hits using p_bot_id, array_to_string(array(select quote_literal(l) from unnest(v_rest) l), ' & ')::tsquery;
    if cardinality(v_hits) = 0 and cardinality(v_rest) > 2 then
      execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
        || ' where c.bot_id = $1 and c.fts @@ $2 limit 200) c'
        into v_hits using p_bot_id, (quote_literal(v_rest[1]) || ' & ' || quote_literal(v_rest[2]))::tsquery;
    end if;
    for i in 1 .. cardinality(v_lex) loop
      if v_lex[i] = any (v_rest) and (cardinality(v_hits) > 0) then
        v_ids := v_ids || v_hits;
        v_w := v_w || array_fill(v_idf[i], array[cardinality(v_hits)]);
      end if;
    end loop;
  end if;

  -- 3. trigrams, where they pay: simple-configuration bots (jp, cn, pl), or full text found little
  if v_config = 'pg_catalog.simple'::regconfig or cardinality(v_ids) < 10 then
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
    perform set_config('pg_trgm.word_similarity_threshold',
      case when v_config = 'pg_catalog.simple'::regconfig then '0.3' else '0.5' end, true);
    foreach v_term in array v_terms loop
      execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
        || ' where c.bot_id = $1 and c.content ilike $2 limit 10) c'
        into v_hits using p_bot_id, '%' || replace(replace(replace(v_term, '\', '\\'), '%', '\%'), '_', '\_') || '%';
      if cardinality(v_hits) = 0 then
        execute 'select coalesce(array_agg(c.id), ''{}'') from (select c.id from public.chunks c'
          || ' where c.bot_id = $1 and $2 operator(extensions.<%) c.content limit 10) c'
          into v_hits using p_bot_id, v_term;
      end if;
      v_pool := v_pool || v_hits;
    end loop;
    perform set_config('pg_trgm.word_similarity_threshold', v_wsim_threshold, true);
  end if;

  return query
  with found as (
    select f.id, sum(f.w) as w from unnest(v_ids, v_w) as f(id, w) group by f.id
  ),
  best as (
    select found.id, found.w from found order by found.w desc, found.id limit 60
  ),
  pool as (
    select p.id, extensions.word_similarity(v_query, c.content)::double precision as sim
    from (select distinct x as id from unnest(v_pool) x) p
    join public.chunks c on c.id = p.id
  ),
  cand as materialized (
    select coalesce(b.id, p.id) as id, coalesce(b.w, 0) as w, coalesce(p.sim, 0) as sim,
      c.document_id, c.position, c.fts, d.url, d.title, d.navigation
    from best b
    full join pool p on p.id = b.id
    join public.chunks c on c.id = coalesce(b.id, p.id)
    join public.documents d on d.id = c.document_id
  ),
  q as materialized (
    select l.lexeme, l.idf, quote_literal(l.lexeme)::tsquery as tq, (quote_literal(l.lexeme) || ':A')::tsquery as tq_head
    from unnest(v_lex, v_idf) as l(lexeme, idf)
  ),
  docs as materialized (
    select k.document_id, to_tsvector(v_config, min(k.title)) as tv from cand k group by k.document_id
  ),
  scored as (
    select k.*, dc.tv,
      -- per lexeme: IDF × ts_rank of that lexeme alone (saturating in its occurrences, a heading
      -- occurrence weighing 5 times a text one), over BM25's chunk-length normalisation (b 0.75)
      (select coalesce(sum(q.idf * ts_rank(array[0.1, 0.2, 0.2, 1.0]::real[], k.fts, q.tq)), 0) from q)
        / (0.25 + 0.75 * length(k.fts) / v_avgdl) as bm,
      (select coalesce(sum(q.idf), 0) from q where k.fts @@ q.tq) as cov,
      (select coalesce(sum(q.idf), 0) from q where k.fts @@ q.tq_head) as head,
      (select coalesce(sum(q.idf), 0) from q where dc.tv @@ q.tq) as tcov,
      (select count(*) from q where dc.tv @@ q.tq) as tmatch
    from cand k
    join docs dc on dc.document_id = k.document_id
  )
  select s.id, s.document_id,
    (s.w + s.sim)::double precision,
    (row_number() over (order by s.w + s.sim desc, s.url, s.position))::integer,
    coalesce(s.cov / nullif(v_total, 0), 0)::double precision,
    coalesce(s.head / nullif(v_total, 0), 0)::double precision,
    coalesce(s.tcov / nullif(v_total, 0), 0)::double precision,
    coalesce(s.tmatch::double precision / nullif(length(s.tv), 0), 0)::double precision,
    s.navigation,
    (count(*) over (partition by s.document_id))::integer,
    coalesce(s.bm / nullif(v_total, 0), 0)::double precision,
    case when v_any is null then 0 else ts_rank_cd(s.fts, v_any, 32) end::double precision,
    s.sim,
    s.url,
    s.position
  from scored s;
end;
$$;
comment on function private.match_chunk_candidates(uuid, text) is
  'Candidates of match_chunks (rarest query lexemes first, capped; trigram pool for simple-configuration bots or when full text finds little; at most 60 + 60) with the features its rule scores: BM25, proximity, IDF-weighted coverage of chunk, heading and title, navigation. No access check: callers check.';
revoke execute on function private.match_chunk_candidates(uuid, text) from public, anon, authenticated;

-- the rule ----------------------------------------------------------------------------------------
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
      1 * k.bm25 + 1 * k.proximity + 1 * k.body_cov + 1 * k.title_cov + 0.25 * ln(k.doc_hits) + 1 * k.trgm
        - case when k.navigation then 1 else 0 end as score
    from private.match_chunk_candidates(p_bot_id, p_query) k
  ) m
  join public.chunks c on c.id = m.chunk_id
  join public.documents d on d.id = c.document_id
  order by m.score desc, m.url, m.chunk_position
  limit v_count;
end;
$$;
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query: candidates from the query''s rarest lexemes (capped) and, for simple-configuration bots or few matches, trigrams; scored by BM25 with per-bot document frequencies, proximity, coverage of the chunk, its heading and title; navigation-only pages down. Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
