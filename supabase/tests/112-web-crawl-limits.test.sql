-- The politeness settings of a web source (delay_ms 0–10,000, concurrency 1–8, whole numbers)
-- are checked by the database as well as by the ingest function and the form.
begin;
select plan(9);

select tests.create_team_fixture();
select tests.authenticate_as('owner');

select lives_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'defaults', '{"url":"https://example.com"}') $$,
  'a web source without delay or concurrency (the defaults) is accepted');
select lives_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'edges', '{"url":"https://example.com","delay_ms":0,"concurrency":8}') $$,
  'delay 0 and 8 pages at once are accepted');
select lives_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'edges 2', '{"url":"https://example.com","delay_ms":10000,"concurrency":1}') $$,
  'delay 10,000 ms and one page at once are accepted');
select throws_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'x', '{"url":"https://example.com","delay_ms":10001}') $$,
  '23514', null, 'a delay over 10,000 ms is refused');
select throws_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'x', '{"url":"https://example.com","delay_ms":-1}') $$,
  '23514', null, 'a negative delay is refused');
select throws_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'x', '{"url":"https://example.com","concurrency":9}') $$,
  '23514', null, 'more than 8 pages at once is refused');
select throws_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'web', 'x', '{"url":"https://example.com","concurrency":1.5}') $$,
  '23514', null, 'a fractional concurrency is refused');
select throws_ok($$ update public.data_sources set settings = settings || '{"delay_ms":"200"}' where name = 'defaults' $$,
  '23514', null, 'a delay that is not a number is refused on update too');
-- other types do not have these settings
select lives_ok($$ insert into public.data_sources (bot_id, type, name, settings)
  values (tests.bot_id('A private'), 'text', 'notes', '{"text":"hello","concurrency":99}') $$,
  'other types are not checked for crawl limits');

select * from finish();
rollback;
