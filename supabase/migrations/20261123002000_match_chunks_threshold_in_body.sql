-- match_chunks without `set pg_trgm.word_similarity_threshold` in its definition.
-- PostgreSQL accepts a SET clause for an extension's setting only from a superuser
-- or once the extension's library is loaded in the same connection; on hosted
-- Supabase `postgres` is no superuser, so 20261121010100 and 20261121011000 fail
-- in a push whose connection has not loaded pg_trgm first (an incremental push that
-- starts at either), and so would a restore of a dump or a later `create or replace`
-- copied from them. The threshold (0.5; 0.3 for the `simple` languages jp, cn, pl)
-- is now set in the body with set_config, which needs neither, and the caller's
-- value is put back before returning. Behaviour is otherwise unchanged.

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
  v_threshold text := current_setting('pg_trgm.word_similarity_threshold', true);
begin
  if v_query = '' or p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
  perform set_config('pg_trgm.word_similarity_threshold',
    case when v_config = 'pg_catalog.simple'::regconfig then '0.3' else '0.5' end, true);
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
  -- the caller's own threshold again (null resets it), as a SET clause would leave it
  perform set_config('pg_trgm.word_similarity_threshold', v_threshold, true);
end;
$$;
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query: full text in the bot''s language, and word similarity over a bounded pool (full-text hits plus per-word trigram lookups through the (bot_id, content) GIN index), fused by reciprocal rank. Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
