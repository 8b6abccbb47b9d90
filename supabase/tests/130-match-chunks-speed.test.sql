-- match_chunks after 20261121011000_match_chunks_speed: the (bot_id, content)
-- trigram index, misspelt questions, Japanese questions, hostile query strings,
-- and the caller's planner/trigram settings left as they were.
begin;
select plan(17);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('mcs_visitor');

select tests.authenticate_as_service_role();
insert into public.bots (id, team_id, name, visibility, language, created_by) values
  ('e3000000-0000-0000-0000-000000000001', tests.team_id('team-a'), 'A japanese', 'public', 'jp', tests.get_supabase_uid('owner'));
insert into public.data_sources (id, bot_id, type, name) values
  ('e4000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Help'),
  ('e4000000-0000-0000-0000-000000000002', 'e3000000-0000-0000-0000-000000000001', 'text', 'ヘルプ'),
  ('e4000000-0000-0000-0000-000000000003', tests.bot_id('A private'), 'text', 'Private');
insert into public.documents (id, data_source_id, bot_id, title, url) values
  ('e5000000-0000-0000-0000-000000000001', 'e4000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Passwords', 'https://example.com/passwords'),
  ('e5000000-0000-0000-0000-000000000002', 'e4000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Billing', 'https://example.com/billing'),
  ('e5000000-0000-0000-0000-000000000003', 'e4000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Export', 'https://example.com/export'),
  ('e5000000-0000-0000-0000-000000000004', 'e4000000-0000-0000-0000-000000000002', 'e3000000-0000-0000-0000-000000000001', 'パスワード', 'https://example.jp/password'),
  ('e5000000-0000-0000-0000-000000000005', 'e4000000-0000-0000-0000-000000000002', 'e3000000-0000-0000-0000-000000000001', '請求', 'https://example.jp/billing'),
  ('e5000000-0000-0000-0000-000000000006', 'e4000000-0000-0000-0000-000000000003', tests.bot_id('A private'), 'Secret', 'text:secret');
insert into public.chunks (document_id, bot_id, position, heading_path, content) values
  ('e5000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 0, 'Account > Passwords',
   'To reset your password, open Settings, choose Security and click "Reset password". We email you a link that works for one hour.'),
  ('e5000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 0, 'Billing > Invoices',
   'Invoices are sent by email on the first day of each month. You can download past invoices from the Billing page.'),
  ('e5000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 0, 'Notes > Export',
   'Export your notes as PDF or Markdown from the File menu. Attachments are exported in a separate folder.'),
  ('e5000000-0000-0000-0000-000000000004', 'e3000000-0000-0000-0000-000000000001', 0, 'アカウント > パスワード',
   'パスワードをリセットするには、設定を開いて「セキュリティ」を選び、「パスワードをリセット」を押してください。リンクをメールでお送りします。'),
  ('e5000000-0000-0000-0000-000000000005', 'e3000000-0000-0000-0000-000000000001', 0, '請求 > 請求書',
   '請求書は毎月一日にメールで送られます。過去の請求書は請求ページからダウンロードできます。'),
  ('e5000000-0000-0000-0000-000000000006', tests.bot_id('A private'), 0, 'Secret', 'The pasword of the vault is blue falcon.');

-- structure
select ok((select exists (select 1 from pg_extension where extname = 'btree_gin' and extnamespace = 'extensions'::regnamespace)),
  'btree_gin lives in the extensions schema');
select ok((select exists (select 1 from pg_indexes where schemaname = 'public' and tablename = 'chunks'
  and indexname = 'chunks_bot_id_content_trgm_idx' and indexdef like '%USING gin (bot_id, content %gin_trgm_ops)')),
  'chunks has a GIN index on (bot_id, content trigrams)');
select is((select pg_get_function_identity_arguments('public.match_chunks'::regproc)), 'p_bot_id uuid, p_query text, p_match_count integer',
  'the signature is unchanged');
select ok((select prosecdef from pg_proc where oid = 'public.match_chunks'::regproc), 'match_chunks is still security definer');

-- misspellings (full text finds nothing for these words)
select tests.authenticate_as('mcs_visitor');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'How do I resett my pasword?') limit 1),
  'https://example.com/passwords', 'a misspelt question finds the right passage first');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'where are my invoises') limit 1),
  'https://example.com/billing', 'one misspelt word is enough');
select is((select document_url from public.match_chunks(tests.bot_id('A gallery'), 'exprot notes as pdf') limit 1),
  'https://example.com/export', 'a misspelt word next to correct ones');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A gallery'), 'zzqx wvvk') $$,
  'nothing alike, nothing found');

-- Japanese (simple configuration: the trigram list does the work)
select is((select document_url from public.match_chunks('e3000000-0000-0000-0000-000000000001', 'パスワードをリセットするには？') limit 1),
  'https://example.jp/password', 'a Japanese question finds the Japanese passage');
select is((select document_url from public.match_chunks('e3000000-0000-0000-0000-000000000001', '請求書はいつ届きますか') limit 1),
  'https://example.jp/billing', 'another Japanese question, another passage');
select is((select count(*)::int from public.match_chunks('e3000000-0000-0000-0000-000000000001', 'パスワード', 1)), 1,
  'p_match_count still limits the rows');

-- hostile strings are words, not patterns
select lives_ok($$ select * from public.match_chunks(tests.bot_id('A gallery'), E'100%_\\x '' or 1=1 -- ') $$,
  'LIKE and quote characters in a query do not break it');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A gallery'), '%%% ___') $$,
  'wildcards alone match nothing');

-- access rules unchanged
select is_empty($$ select * from public.match_chunks(tests.bot_id('A private'), 'vault pasword') $$,
  'a stranger gets nothing from a private bot, misspelt or not');
select tests.authenticate_as('owner');
select is((select document_url from public.match_chunks(tests.bot_id('A private'), 'vault passwrd') limit 1),
  'text:secret', 'the team finds a misspelt passage of its private bot');

-- the function scopes its settings: the caller's stay as they were
select set_config('pg_trgm.word_similarity_threshold', '0.7', true), set_config('enable_seqscan', 'off', true);
select ok((select count(*) > 0 from public.match_chunks(tests.bot_id('A gallery'), 'resett pasword')),
  'a caller''s own trigram threshold does not change the results');
select is(current_setting('pg_trgm.word_similarity_threshold') || ' ' || current_setting('enable_seqscan') || ' ' || current_setting('enable_indexscan'),
  '0.7 off on', 'the caller''s settings are restored');

select * from finish();
rollback;
