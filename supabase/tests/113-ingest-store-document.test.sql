-- public.ingest_store_document: the ingest function stores a document and its chunks in one call
-- (service role only); a second call for the same url replaces the document's fields and chunks.
begin;
select plan(17);

select tests.create_team_fixture();

select ok(not has_function_privilege('anon', 'public.ingest_store_document(jsonb, jsonb)', 'execute'), 'anon cannot execute ingest_store_document');
select ok(not has_function_privilege('authenticated', 'public.ingest_store_document(jsonb, jsonb)', 'execute'),
  'signed-in users cannot execute ingest_store_document');
select ok(has_function_privilege('service_role', 'public.ingest_store_document(jsonb, jsonb)', 'execute'), 'the service role may');
select ok(not (select prosecdef from pg_proc where oid = 'public.ingest_store_document(jsonb, jsonb)'::regprocedure), 'it is security invoker');

select tests.authenticate_as('owner');
select throws_ok($$ select public.ingest_store_document('{}', '[]') $$, '42501', null, 'the bot''s owner cannot call it');

select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name, settings) values
  ('e3000000-0000-0000-0000-000000000001', tests.bot_id('A private'), 'web', 'Docs', '{"url":"https://example.com"}');

create temporary table stored (id uuid) on commit drop;
insert into stored select public.ingest_store_document(
  jsonb_build_object('data_source_id', 'e3000000-0000-0000-0000-000000000001', 'bot_id', tests.bot_id('A private'),
    'url', 'https://example.com/a', 'title', 'Page A', 'content', 'Alpha text. Beta text.', 'content_hash', 'h1',
    'size_bytes', 22, 'etag', '"v1"', 'last_modified', 'Sat, 28 Nov 2026 10:00:00 GMT',
    'links', jsonb_build_array('https://example.com/b'), 'fetched_at', '2026-11-28T10:00:00Z', 'navigation', true),
  '[{"position":0,"heading_path":"Page A","content":"Alpha text.","token_count":3},
    {"position":1,"heading_path":"Page A > B","content":"Beta text.","token_count":3}]');
select is(
  (select row(d.title, d.content_hash, d.size_bytes, d.etag, d.links, d.fetched_at, d.navigation, d.status::text)::text
   from public.documents d where d.id = (select id from stored)),
  row('Page A', 'h1', 22, '"v1"', array['https://example.com/b'], '2026-11-28T10:00:00Z'::timestamptz, true, 'ready')::text,
  'the document is stored with its hash, validators, links and navigation flag');
select is(
  (select string_agg(c.position || ':' || c.heading_path || ':' || c.content, ' | ' order by c.position)
   from public.chunks c where c.document_id = (select id from stored)),
  '0:Page A:Alpha text. | 1:Page A > B:Beta text.', 'its chunks are stored in order');
select is((select bool_and(c.bot_id = tests.bot_id('A private')) from public.chunks c where c.document_id = (select id from stored)), true,
  'the chunks belong to the document''s bot');

select is(public.ingest_store_document(
  jsonb_build_object('data_source_id', 'e3000000-0000-0000-0000-000000000001', 'bot_id', tests.bot_id('A private'),
    'url', 'https://example.com/a', 'title', 'Page A2', 'content', 'Gamma.', 'content_hash', 'h2'),
  '[{"position":0,"heading_path":"Page A2","content":"Gamma.","token_count":1}]'), (select id from stored),
  'storing the same url again keeps the document''s id');
select is(
  (select row(d.title, d.content_hash, d.etag, d.links, d.navigation)::text from public.documents d where d.id = (select id from stored)),
  row('Page A2', 'h2', null::text, null::text[], false)::text, 'the new call''s fields replace the old ones');
select is((select string_agg(c.content, ' | ') from public.chunks c where c.document_id = (select id from stored)), 'Gamma.',
  'the old chunks are replaced');
select is((select count(*)::int from public.documents where data_source_id = 'e3000000-0000-0000-0000-000000000001'), 1, 'no duplicate document');

-- bad input
select throws_ok($$ select public.ingest_store_document('[]', '[]') $$, '22023', null, 'a document that is not an object is refused');
select throws_ok($$ select public.ingest_store_document(jsonb_build_object('data_source_id', 'e3000000-0000-0000-0000-000000000001',
  'bot_id', tests.bot_id('A private'), 'url', 'https://example.com/c', 'content', 'x'), '[1]') $$,
  '22023', null, 'a chunk that is not an object is refused');
select throws_ok($$ select public.ingest_store_document(jsonb_build_object('data_source_id', 'e3000000-0000-0000-0000-000000000001',
  'bot_id', tests.bot_id('A gallery'), 'url', 'https://example.com/c', 'content', 'x'), '[]') $$,
  '22023', null, 'a data source of another bot is refused');
select throws_ok($$ select public.ingest_store_document(jsonb_build_object('data_source_id', 'e3000000-0000-0000-0000-000000000001',
  'bot_id', tests.bot_id('A private'), 'url', 'https://example.com/c', 'content', 'x'),
  '[{"position":0,"content":"","token_count":0}]') $$,
  '23514', null, 'an empty chunk is refused by the table''s check, and nothing is stored');
select is((select count(*)::int from public.documents where url = 'https://example.com/c'), 0, 'a refused call stores no document');

select * from finish();
rollback;
