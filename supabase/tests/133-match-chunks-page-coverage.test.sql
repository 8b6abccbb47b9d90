-- match_chunks after 20261130050000_match_chunks_page_coverage: each passage also scores its page's
-- coverage of the question (the IDF-weighted share of the query's lexemes that the page's candidate
-- passages and its title hold together), so of two pages with equal passages the one that answers
-- the whole question comes first. Same signature, access rule and repeatable order.
begin;
select plan(9);

select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug in ('team-a', 'team-b'); -- plan limits are 510-billing's concern
select tests.create_supabase_user('pc_visitor');

select tests.authenticate_as_service_role();
insert into public.data_sources (id, bot_id, type, name) values
  ('ea000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'text', 'Manual');
insert into public.documents (id, data_source_id, bot_id, title, url) values
  ('eb000000-0000-0000-0000-000000000001', 'ea000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Brewing notes', 'https://example.com/notes-a'),
  ('eb000000-0000-0000-0000-000000000002', 'ea000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Brewing notes', 'https://example.com/notes-b'),
  ('eb000000-0000-0000-0000-000000000003', 'ea000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Garden', 'https://example.com/garden'),
  ('eb000000-0000-0000-0000-000000000004', 'ea000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 'Whistles', 'https://example.com/whistles');
-- notes-a and notes-b open with the same passage ("copper kettle"); only notes-b also says that it
-- whistles, in another passage; the garden's train whistles too; the "Whistles" page's title
-- holds the word its text does not
insert into public.chunks (document_id, bot_id, position, heading_path, content) values
  ('eb000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 0, 'Notes', 'The copper kettle boils the water for tea.'),
  ('eb000000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), 1, 'Notes', 'Polish the copper kettle after use.'),
  ('eb000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 0, 'Notes', 'The copper kettle boils the water for tea.'),
  ('eb000000-0000-0000-0000-000000000002', tests.bot_id('A gallery'), 1, 'Notes', 'When it is ready, it whistles.'),
  ('eb000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 0, 'Garden', 'The birds sing in the garden.'),
  ('eb000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 1, 'Garden', 'A train whistles far away. Birds reply.'),
  ('eb000000-0000-0000-0000-000000000003', tests.bot_id('A gallery'), 2, 'Garden', 'Water the roses in the morning.'),
  ('eb000000-0000-0000-0000-000000000004', tests.bot_id('A gallery'), 0, 'Sounds', 'A kettle made of copper sings on the stove.');

-- the feature, read as the owner (clients cannot call the candidate function)
reset role;
create temp table cand on commit drop as
select k.url, k.chunk_position, k.page_cov, k.body_cov, k.chunk_id,
  1 * k.bm25 + 1 * k.proximity + 1 * k.body_cov + 1 * k.title_cov + 0.25 * ln(k.doc_hits) + 1 * k.trgm
    - case when k.navigation then 1 else 0 end as without_page
from private.match_chunk_candidates(tests.bot_id('A gallery'), 'copper kettle whistles') k;
grant select on cand to authenticated;
select ok((select count(distinct page_cov) = 1 from cand where url = 'https://example.com/notes-b')
  and (select count(distinct page_cov) = 1 from cand where url = 'https://example.com/notes-a'),
  'every passage of a page has the page''s coverage');
select is((select round(page_cov::numeric, 12) from cand where url = 'https://example.com/notes-b' limit 1), 1.000000000000::numeric,
  'a page whose passages hold all the query''s words together covers it whole');
select is((select round(page_cov::numeric, 12) from cand where url = 'https://example.com/notes-a' limit 1),
  (select round(max(body_cov)::numeric, 12) from cand where url = 'https://example.com/notes-a'),
  'a page holding only some of them covers their share (here: its passages''');
select ok((select bool_and(page_cov >= body_cov - 1e-12 and page_cov <= 1 + 1e-12) from cand),
  'a page covers at least what each of its passages covers, and at most all of the query');
select is((select round(page_cov::numeric, 12) from cand where url = 'https://example.com/whistles' limit 1), 1.000000000000::numeric,
  'the page''s title counts: "Whistles" with a copper kettle in its text covers the query');
select is((select url from cand where url like '%/notes-_' order by without_page desc, url, chunk_position limit 1),
  'https://example.com/notes-a', 'without the page''s coverage notes-a would come first of the two (a shorter passage, the same words)');

select tests.authenticate_as('pc_visitor');
select is((select array_agg(m.document_url) from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 3) m),
  (select array_agg(c.url order by c.without_page + c.page_cov desc, c.url, c.chunk_position) from (
     select * from cand order by without_page + page_cov desc, url, chunk_position limit 3) c),
  'match_chunks scores the rule plus the page''s coverage, in its order');
select ok((select array_position(array_agg(m.document_url), 'https://example.com/notes-b') < array_position(array_agg(m.document_url), 'https://example.com/notes-a')
  from public.match_chunks(tests.bot_id('A gallery'), 'copper kettle whistles', 8) m),
  'the page answering the whole question comes before the page with the same passage that does not');
select is_empty($$ select * from public.match_chunks(tests.bot_id('A private'), 'copper kettle whistles') $$,
  'a stranger gets nothing from a private bot');

select * from finish();
rollback;
