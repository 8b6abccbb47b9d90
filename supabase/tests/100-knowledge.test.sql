begin;
select plan(39);

select tests.create_team_fixture();
select tests.create_supabase_user('kn_visitor');

-- fixture: a data source, two documents and chunks on the private and the public bot of team A
select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name, settings) values
  ('e0000000-0000-0000-0000-000000000001', tests.bot_id('A private'), 'text', 'Private notes', '{}'),
  ('e0000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 'web', 'Help centre', '{"url":"https://example.com"}');
insert into public.documents (id, data_source_id, bot_id, title, url, content) values
  ('e1000000-0000-0000-0000-000000000001', 'e0000000-0000-0000-0000-000000000001', tests.bot_id('A private'), 'Secret', 'text:secret', 'The launch code is blue falcon.'),
  ('e1000000-0000-0000-0000-000000000002', 'e0000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 'Passwords', 'https://example.com/passwords', ''),
  ('e1000000-0000-0000-0000-000000000003', 'e0000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 'Billing', 'https://example.com/billing', '');
insert into public.chunks (document_id, bot_id, position, heading_path, content) values
  ('e1000000-0000-0000-0000-000000000001', tests.bot_id('A private'), 0, 'Secret', 'The launch code is blue falcon.'),
  ('e1000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 0, 'Account > Passwords',
   'To reset your password, open Settings, choose Security and click "Reset password". We email you a link that works for one hour.'),
  ('e1000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 0, 'Billing > Invoices',
   'Invoices are sent by email on the first day of each month. You can download past invoices from the Billing page.'),
  ('e1000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 1, 'Billing > Refunds',
   'Refunds are possible within 30 days of a payment. Contact support with your invoice number.');
insert into public.ingestion_jobs (id, data_source_id, bot_id, status) values
  ('e2000000-0000-0000-0000-000000000001', 'e0000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 'succeeded');
insert into public.data_source_secrets (data_source_id, notion_access_token) values ('e0000000-0000-0000-0000-000000000002', 'secret_token');

-- structure
select tests.rls_enabled('public', 'data_sources');
select tests.rls_enabled('public', 'documents');
select tests.rls_enabled('public', 'chunks');
select tests.rls_enabled('public', 'ingestion_jobs');
select tests.rls_enabled('public', 'data_source_secrets');
select is((select fts_config::text from public.chunks where document_id = 'e1000000-0000-0000-0000-000000000002'), 'english',
  'chunks take the bot''s text-search configuration');
select ok((select count(*) = 2 from pg_publication_tables where pubname = 'supabase_realtime'
  and tablename in ('data_sources', 'ingestion_jobs')), 'data_sources and ingestion_jobs are in the realtime publication');

-- owner and admin manage data sources
select tests.authenticate_as('owner');
select is((select count(*)::int from public.data_sources), 2, 'the owner reads the team''s data sources');
select lives_ok($$ insert into public.data_sources (bot_id, type, name, status, document_count)
  values (tests.bot_id('A private'), 'web', 'Docs', 'ready', 99) $$, 'the owner creates a data source');
select is((select status::text || document_count from public.data_sources where name = 'Docs'), 'idle0',
  'clients cannot preset status or counters');
select lives_ok($$ update public.data_sources set sync_schedule = 'daily' where name = 'Docs' $$, 'the owner sets a schedule');
select ok((select next_sync_at > now() + interval '23 hours' from public.data_sources where name = 'Docs'), 'a schedule sets next_sync_at');
select throws_ok($$ update public.data_sources set status = 'ready' where name = 'Docs' $$, '42501', null,
  'clients cannot write the sync status');
select throws_ok($$ update public.data_sources set bot_id = tests.bot_id('B private') where name = 'Docs' $$, '42501', null,
  'a data source cannot be moved to another bot');
select is((select count(*)::int from public.documents), 3, 'the owner reads documents');
select is((select count(*)::int from public.chunks), 4, 'the owner reads chunks');
select is((select count(*)::int from public.ingestion_jobs), 1, 'the owner reads jobs');
select throws_ok($$ insert into public.documents (data_source_id, bot_id, title, url)
  values ('e0000000-0000-0000-0000-000000000001', tests.bot_id('A private'), 'x', 'x') $$, '42501', null,
  'the owner cannot write documents (the ingest function does)');
select throws_ok($$ update public.ingestion_jobs set status = 'failed' $$, '42501', null, 'the owner cannot write jobs');
select throws_ok($$ select * from public.data_source_secrets $$, '42501', null, 'the owner cannot read data source secrets');

select tests.authenticate_as('admin');
select lives_ok($$ delete from public.data_sources where name = 'Docs' $$, 'an admin deletes a data source');
select is((select count(*)::int from public.data_sources), 2, 'the admin reads the team''s data sources');

-- other team, stranger, platform admin, anon
select tests.authenticate_as('other');
select is_empty($$ select * from public.data_sources $$, 'another team sees no data sources');
select is_empty($$ select * from public.chunks $$, 'another team sees no chunks');
select throws_ok($$ insert into public.data_sources (bot_id, type, name) values (tests.bot_id('A private'), 'web', 'x') $$,
  '42501', null, 'another team cannot add a data source to the bot');
select lives_ok($$ delete from public.documents $$, 'a delete by another team runs...');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.documents where bot_id in (tests.bot_id('A private'), tests.bot_id('A gallery'))), 3,
  '...but removes nothing');
select is((select count(*)::int from public.documents), tests.count_all('public.documents'), 'the platform admin reads all documents');
select is((select count(*)::int from public.data_sources), tests.count_all('public.data_sources'), 'the platform admin reads all data sources');
select tests.clear_authentication();
select throws_ok($$ select * from public.data_sources $$, '42501', null, 'anon cannot read data sources');
select throws_ok($$ select * from public.match_chunks(tests.bot_id('A gallery'), 'password') $$, '42501', null,
  'anon (no session) cannot call match_chunks');

-- retrieval
select tests.authenticate_as('kn_visitor');
select is((select count(*)::int from public.match_chunks(tests.bot_id('A gallery'), 'How do I reset my password?')), 1,
  'a visitor gets passages from a public bot');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'How do I reset my password?') limit 1),
  'https://example.com/passwords', 'the right passage comes first');
select is((select heading_path || ' @ ' || document_title from public.match_chunks(tests.bot_id('A gallery'), 'refund invoice number') limit 1),
  'Billing > Refunds @ Billing', 'heading path and document title come along');
select is((select count(*)::int from public.match_chunks(tests.bot_id('A gallery'), 'invoices', 1)), 1, 'p_match_count limits the rows');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A private'), 'launch code') $$,
  'a stranger gets nothing from a private bot');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A gallery'), '   ') $$, 'an empty query finds nothing');
select ok((select count(*) > 0 from public.match_chunks(tests.bot_id('A gallery'), 'pasword resett')),
  'trigram similarity finds misspelt words');
select tests.authenticate_as('owner');
select is((select content from public.match_chunks(tests.bot_id('A private'), 'launch code') limit 1),
  'The launch code is blue falcon.', 'the team retrieves from its private bot');

select * from finish();
rollback;
