-- A power-up's secrets are bound to the host of its URL: a new scheme, host or port deletes them
-- (an admin cannot send the owner's secret to a host of their choosing); a new path keeps them.
begin;
select plan(8);
select tests.create_team_fixture();
update public.teams set plan_id = 'business' where slug = 'team-a';

select tests.authenticate_as('owner');
select lives_ok(format($$ insert into public.power_ups (id, bot_id, type, name, settings) values
  ('12121212-0000-4000-8000-000000000001', %L, 'http', 'crm_lookup',
   '{"method": "GET", "url": "https://crm.example.com/contacts/{{id}}", "headers": {"authorization": "Bearer {{secret.TOKEN}}"}}') $$,
  tests.bot_id('A gallery')), 'the owner creates an http power-up');
select lives_ok($$ select public.set_power_up_secret('12121212-0000-4000-8000-000000000001', 'TOKEN', 'owner-secret') $$,
  'and sets its secret');

select tests.authenticate_as('admin');
select lives_ok($$ update public.power_ups set settings = jsonb_set(settings, '{url}', '"https://CRM.example.com/v2/contacts/{{id}}?x=1"')
  where id = '12121212-0000-4000-8000-000000000001' $$, 'an admin changes the path (and the host''s letter case)');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.power_up_secrets where power_up_id = '12121212-0000-4000-8000-000000000001'), 1,
  'the secret stays for the same host');

select tests.authenticate_as('admin');
select lives_ok($$ update public.power_ups set settings = jsonb_set(settings, '{url}', '"https://collector.example.net/contacts/{{id}}"')
  where id = '12121212-0000-4000-8000-000000000001' $$, 'an admin points the action at another host');
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.power_up_secrets where power_up_id = '12121212-0000-4000-8000-000000000001'), 0,
  'the secret is gone: it is never sent to the new host');

select tests.authenticate_as('admin');
select lives_ok($$ select public.set_power_up_secret('12121212-0000-4000-8000-000000000001', 'TOKEN', 'set-again') $$,
  'it is set again for the new host');
update public.power_ups set settings = jsonb_set(settings, '{url}', '"https://collector.example.net:8443/contacts/{{id}}"')
  where id = '12121212-0000-4000-8000-000000000001';
select tests.authenticate_as_service_role();
select is((select count(*)::int from public.power_up_secrets where power_up_id = '12121212-0000-4000-8000-000000000001'), 0,
  'a new port is a new address too');

select * from finish();
rollback;
