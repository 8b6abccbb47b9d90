-- public.peek_rate_limit reads a fixed-window counter without counting a hit (bot-login's
-- failure marks and bot bucket, team-invite's per-address e-mail budget); service role only.
begin;
select plan(8);
select tests.create_supabase_user('visitor1');

select tests.authenticate_as('visitor1');
select throws_ok($$ select * from public.peek_rate_limit('x', 1, 60) $$, '42501', null, 'clients cannot read rate limits');
select tests.clear_authentication();
select throws_ok($$ select * from public.peek_rate_limit('x', 1, 60) $$, '42501', null, 'nor can anon');

select tests.authenticate_as_service_role();
select results_eq($$ select allowed, retry_after from public.peek_rate_limit('t:201', 2, 60) $$, $$ values (true, 0) $$,
  'a key never hit has hits left');
select lives_ok($$ select * from public.consume_rate_limit('t:201', 2, 60) $$, 'one hit');
select results_eq($$ select allowed, retry_after from public.peek_rate_limit('t:201', 2, 60) $$, $$ values (true, 0) $$,
  'one of two used: still a hit left, and peeking counted nothing');
select lives_ok($$ select * from public.consume_rate_limit('t:201', 2, 60) $$, 'a second hit');
select results_eq($$ select allowed, retry_after between 1 and 60 from public.peek_rate_limit('t:201', 2, 60) $$,
  $$ values (false, true) $$, 'both used: refused, with the seconds until the window ends');
select throws_ok($$ select * from public.peek_rate_limit('', 1, 60) $$, '22023', null, 'an empty key is refused');

select * from finish();
rollback;
