-- match_chunks after 20261128180000_match_chunks_bm25: the per-bot lexeme statistics kept by
-- triggers on chunks, the (bot_id, fts) index, IDF ranking (a rare word outweighs a common one),
-- misspelt words through the bot's vocabulary, repeatable order of ties, and who may read what.
begin;
select plan(21);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('bm_visitor');

select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name) values
  ('e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Manual');
insert into public.documents (id, data_source_id, bot_id, title, url) values
  ('e7000000-0000-0000-0000-000000000001', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Storage', 'https://example.com/storage'),
  ('e7000000-0000-0000-0000-000000000002', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Usage', 'https://example.com/usage'),
  ('e7000000-0000-0000-0000-000000000003', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Twin b', 'https://example.com/twin-b'),
  ('e7000000-0000-0000-0000-000000000004', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Twin a', 'https://example.com/twin-a');
-- "use" is everywhere, "bigint" once: the rare word decides
insert into public.chunks (document_id, bot_id, position, heading_path, content) values
  ('e7000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 0, 'Types',
   'A bigint takes eight bytes of storage; a smallint takes two.'),
  ('e7000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 0, 'Usage', 'Use the app daily. Use it well. Many people use it.'),
  ('e7000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 1, 'Usage', 'How many people use the app? Most use it on a phone.'),
  ('e7000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 2, 'Usage', 'You may use the desktop app as well, and use both.'),
  ('e7000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 0, 'Twins', 'The copper kettle whistles when the water boils.'),
  ('e7000000-0000-0000-0000-000000000004', tests.bot_id('A gallery'), 0, 'Twins', 'The copper kettle whistles when the water boils.');

-- structure
select tests.rls_enabled('private', 'bot_lexemes');
select tests.rls_enabled('private', 'bot_chunk_stats');
select ok(not has_table_privilege('authenticated', 'private.bot_lexemes', 'select')
  and not has_table_privilege('anon', 'private.bot_chunk_stats', 'select'), 'clients cannot read the statistics');
select ok(not has_function_privilege('authenticated', 'private.match_chunk_candidates(uuid, text)', 'execute'),
  'clients cannot call the candidate function');
select ok((select exists (select 1 from pg_indexes where schemaname = 'public' and tablename = 'chunks'
  and indexname = 'chunks_bot_id_fts_idx' and indexdef like '%USING gin (bot_id, fts)')), 'chunks has a GIN index on (bot_id, fts)');
select ok((select not exists (select 1 from pg_indexes where schemaname = 'public' and indexname = 'chunks_fts_idx')),
  'the fts-only index is gone');
select ok((select prosecdef and proconfig @> array['search_path=""'] from pg_proc where oid = 'public.match_chunks(uuid, text, integer)'::regprocedure),
  'match_chunks is security definer with an empty search_path');

-- the statistics follow inserts, updates and deletes (read as the owner: no client role may)
reset role;
select is((select chunks from private.bot_chunk_stats where bot_id = tests.bot_id('A gallery')), 6, 'the bot''s chunk count');
select is((select chunks from private.bot_lexemes where bot_id = tests.bot_id('A gallery') and lexeme = 'use'), 3,
  'a lexeme''s count is the number of chunks holding it, not of its occurrences');
select is((select chunks from private.bot_lexemes where bot_id = tests.bot_id('A gallery') and lexeme = 'bigint'), 1, 'a rare lexeme');
select is((select chunks from private.bot_lexemes where bot_id = tests.bot_id('A gallery') and lexeme = 'twin'), 2,
  'heading path lexemes count too');
update public.chunks set content = 'Use the app with a kettle.' where document_id = 'e7000000-0000-0000-0000-000000000002' and position = 0;
select is((select string_agg(lexeme || '=' || chunks, ' ' order by lexeme) from private.bot_lexemes
  where bot_id = tests.bot_id('A gallery') and lexeme in ('daili', 'kettl', 'use')), 'kettl=3 use=3',
  'an update of the text moves the counts (and a lexeme no chunk holds is dropped)');
delete from public.chunks where document_id = 'e7000000-0000-0000-0000-000000000002' and position = 2;
select is((select chunks::text || ' ' || lexemes from private.bot_chunk_stats where bot_id = tests.bot_id('A gallery')),
  (select count(*)::text || ' ' || sum(length(fts)) from public.chunks where bot_id = tests.bot_id('A gallery')),
  'a delete takes the chunk off the count and the length sum');
select is((select chunks from private.bot_lexemes where bot_id = tests.bot_id('A gallery') and lexeme = 'use'), 2, 'and off its lexemes');
delete from public.data_sources where id = 'e6000000-0000-0000-0000-000000000001';
select is((select count(*)::int from private.bot_lexemes where bot_id = tests.bot_id('A gallery')), 0,
  'deleting the data source (cascade) removes its lexemes');
-- back again for the ranking checks
insert into public.data_sources (id, bot_id, type, name) values
  ('e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Manual');
insert into public.documents (id, data_source_id, bot_id, title, url) values
  ('e7000000-0000-0000-0000-000000000001', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Storage', 'https://example.com/storage'),
  ('e7000000-0000-0000-0000-000000000002', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Usage', 'https://example.com/usage'),
  ('e7000000-0000-0000-0000-000000000003', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Twin b', 'https://example.com/twin-b'),
  ('e7000000-0000-0000-0000-000000000004', 'e6000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Twin a', 'https://example.com/twin-a');
insert into public.chunks (document_id, bot_id, position, heading_path, content) values
  ('e7000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 0, 'Types',
   'A bigint takes eight bytes of storage; a smallint takes two.'),
  ('e7000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 0, 'Usage', 'Use the app daily. Use it well. Many people use it.'),
  ('e7000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 1, 'Usage', 'How many people use the app? Most use it on a phone.'),
  ('e7000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 0, 'Twins', 'The copper kettle whistles when the water boils.'),
  ('e7000000-0000-0000-0000-000000000004', tests.bot_id('A gallery'), 0, 'Twins', 'The copper kettle whistles when the water boils.');

-- ranking
select tests.authenticate_as('bm_visitor');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'how many bytes does a bigint use') limit 1),
  'https://example.com/storage', 'the rare word outweighs the common ones');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'bigintt') limit 1),
  'https://example.com/storage', 'a misspelt word is read as the bot''s word it resembles');
select is((select array_agg(document_url) from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles')),
  array['https://example.com/twin-a', 'https://example.com/twin-b'], 'equal passages come in document order, every time');
select is((select array_agg(document_url) from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles')),
  array['https://example.com/twin-a', 'https://example.com/twin-b'], 'the same order again');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A private'), 'bigint') $$,
  'a stranger gets nothing from a private bot');
select throws_ok($$ select * from private.bot_lexemes $$, '42501', null, 'a visitor cannot read the vocabulary');

select * from finish();
rollback;
