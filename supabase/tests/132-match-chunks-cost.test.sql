-- match_chunks after 20261129010000_match_chunks_cost: the same rule as before, cheaper. Its
-- result is the rule applied to match_chunk_candidates (cut before the chunks are read), the
-- statements keep their generic plans, proximity is 0 exactly where the pairs query cannot match,
-- and the lookups still find every chunk of a rare lexeme, stand-ins for unknown words, and the
-- capped chunks of common ones. (The rule since 20261130050000_match_chunks_page_coverage adds the page's
-- coverage, 133.)
begin;
select plan(12);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('mc_visitor');

select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name) values
  ('e8000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Manual');
insert into public.documents (id, data_source_id, bot_id, title, url)
select ('e9000000-0000-0000-0000-' || lpad(d::text, 12, '0'))::uuid, 'e8000000-0000-0000-0000-000000000001',
  tests.bot_id('A gallery'), 'Kettle guide ' || d, 'https://example.com/kettle-' || d
from generate_series(1, 12) d;
-- 60 chunks: "kettle" in all (common), "copper" in every third, "whistle" near it in every sixth
insert into public.chunks (document_id, bot_id, position, heading_path, content)
select ('e9000000-0000-0000-0000-' || lpad((1 + n % 12)::text, 12, '0'))::uuid, tests.bot_id('A gallery'), n, 'Guide > Part ' || n,
  'The kettle boils water. '
    || case when n % 3 = 0 then 'A copper kettle ' else 'A steel pot ' end
    || case when n % 6 = 0 then 'whistles loudly. ' else 'sits quietly. ' end
    || repeat('Tea is served after the kettle. ', 1 + n % 4)
from generate_series(1, 60) n;

-- structure
select ok((select proconfig @> array['plan_cache_mode=force_generic_plan'] and prorows = 60 and prosecdef
  from pg_proc where oid = 'private.match_chunk_candidates(uuid, text)'::regprocedure),
  'the candidate function keeps generic plans, is estimated at 60 rows, and is security definer');
select ok((select prosecdef and proconfig @> array['search_path=""'] from pg_proc where oid = 'public.match_chunks(uuid, text, integer)'::regprocedure),
  'match_chunks is still security definer with an empty search_path');

-- the rule over the candidates, cut to the count asked for (read as the owner: clients cannot call candidates)
reset role;
create temp table expected on commit drop as
select k.chunk_id, 1 * k.bm25 + 1 * k.proximity + 1 * k.body_cov + 1 * k.title_cov + 0.25 * ln(k.doc_hits) + 1 * k.trgm
    + 1 * k.page_cov - case when k.navigation then 1 else 0 end as score, k.url, k.chunk_position, k.proximity
from private.match_chunk_candidates(tests.bot_id('A gallery'), 'copper kettle whistles') k;
grant select on expected to authenticated;
select is((select count(*)::int from expected), 60, 'every chunk holding a rare lexeme is a candidate');
select ok((select bool_and(e.proximity > 0) from expected e join public.chunks c on c.id = e.chunk_id where c.position % 6 = 0)
  and (select bool_and(e.proximity = 0) from expected e join public.chunks c on c.id = e.chunk_id where c.position % 3 <> 0),
  'proximity is positive where two query words stand together, 0 where the chunk holds only one of them');

select tests.authenticate_as('mc_visitor');
select is((select array_agg(m.chunk_id) from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 8) m),
  (select array_agg(e.chunk_id order by e.score desc, e.url, e.chunk_position) from (
     select * from expected order by score desc, url, chunk_position limit 8) e),
  'match_chunks returns the first 8 of the rule, in its order');
select is((select array_agg(m.score) from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 3) m),
  (select array_agg(e.score order by e.score desc, e.url, e.chunk_position) from (
     select * from expected order by score desc, url, chunk_position limit 3) e),
  'with the rule''s scores, to the bit');
select is((select count(*)::int from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 100)), 50,
  'at most 50 passages');
select is((select count(*)::int from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 10) m
  where m.content like '%copper kettle whistles%'), 10, 'the ten chunks with all three words together lead');
select is((select content like '%copper kettle whistles%' from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 1)),
  true, 'the passage returned is read whole');
select is((select count(*)::int from public.match_chunks(tests.bot_id('A gallery'), 'coppper', 8)), 8,
  'an unknown word still finds the bot''s word it resembles');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A private'), 'copper kettle') $$,
  'a stranger gets nothing from a private bot');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A gallery'), '   ') $$, 'a blank question finds nothing');

select * from finish();
rollback;
