-- match_chunks, faster: the trigram list (word similarity of the whole query
-- against 1,000-character chunks) costs seconds on 10,000 chunks, because
-- nearly every chunk shares a few trigrams with a question and each must be
-- rechecked. It now runs where it earns its cost: for bots whose language has
-- no stemmer (jp, cn, pl use `simple`), and when full text finds fewer than 10
-- passages (misspellings, rare words). Both lists are still fused by
-- reciprocal rank (k = 60). bench/ingest/REPORT.md has the numbers.

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
set pg_trgm.word_similarity_threshold = 0.3
as $$
declare
  v_config regconfig;
  v_any tsquery;
  v_web tsquery;
  v_fts uuid[] := '{}';
  v_trgm uuid[] := '{}';
  v_count integer := least(greatest(coalesce(p_match_count, 8), 1), 50);
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
begin
  if v_query = '' or p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
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

  if cardinality(v_fts) < 10 or v_config = 'pg_catalog.simple'::regconfig then
    select coalesce(array_agg(ranked.id order by ranked.sim desc, ranked.id), '{}') into v_trgm
    from (
      select c.id, extensions.word_similarity(v_query, c.content) as sim
      from public.chunks c
      where c.bot_id = p_bot_id and v_query operator(extensions.<%) c.content
      order by sim desc, c.id
      limit 50
    ) ranked;
  end if;

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
  'The best passages of a bot''s data for a query (full text in the bot''s language; trigram similarity for simple-config languages and when full text finds little; fused by reciprocal rank). Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;
