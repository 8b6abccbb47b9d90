-- Open invitations hold a seat of the plan's member limit (migration 20261128140000): a team
-- cannot hand out more invitations than it has seats; a resend and an expired invitation need none.
begin;
select plan(6);
select tests.create_team_fixture();

-- team-a has its owner and an admin; a plan of four seats leaves two.
insert into public.plans (id, sort_order, name, chat_requests_per_minute, bots, messages_per_month, data_sources,
  stored_characters, members, channels, power_ups, api_access, powered_by_removable, test_runs_per_month)
values ('seats', 1, '{"en":"Seats","de":"Plätze","es":"Plazas","fr":"Places","it":"Posti","jp":"席","cn":"席位","el":"Θέσεις","pl":"Miejsca","nl":"Plaatsen"}',
  600, null, null, null, null, 4, null, null, true, true, null);
update public.teams set plan_id = 'seats' where id = tests.team_id('team-a');
select is((select count(*)::int from public.team_members where team_id = tests.team_id('team-a')), 2, 'team-a has two members');

select tests.authenticate_as('owner');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'one@test.parley.local', 'admin') $$),
  null, 'the first invitation takes the third seat');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'two@test.parley.local', 'admin') $$),
  null, 'the second takes the fourth');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'three@test.parley.local', 'admin') $$),
  'PT402|plan_limit|members', 'a third open invitation is refused: no seat is left');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'two@test.parley.local', 'owner') $$),
  null, 'inviting the same address again (a resend) needs no extra seat');

reset role;
update public.team_invitations set expires_at = now() - interval '1 minute'
where team_id = tests.team_id('team-a') and email = 'one@test.parley.local';
select tests.authenticate_as('owner');
select is(tests.error_of($$ select public.invite_team_member(tests.team_id('team-a'), 'three@test.parley.local', 'admin') $$),
  null, 'an expired invitation holds no seat');

select * from finish();
rollback;
