-- billing hardening (review C): only a team's owners manage its billing (owned_subscription, not
-- the platform administrators who read every subscription); a paid plan granted outside Stripe on
-- an ended Stripe subscription stays (the billing tick does not undo it); "powered by" hidden on a
-- paid plan shows again to visitors on a plan that does not allow hiding it; a team paying through
-- Stripe cannot be deleted until its subscription is cancelled.
begin;
select plan(26);
select tests.create_team_fixture();

-- who manages billing: owned_subscription ----------------------------------------------------------
select tests.authenticate_as('owner');
select is((select count(*)::int from public.owned_subscription(tests.team_id('team-a'))), 1, 'an owner gets their team''s subscription');
select is((select count(*)::int from public.owned_subscription(tests.team_id('team-b'))), 0, 'and not another team''s');
select tests.authenticate_as('admin');
select is((select count(*)::int from public.owned_subscription(tests.team_id('team-a'))), 0, 'a team admin does not manage billing');
select tests.authenticate_as('platform');
select is((select count(*)::int from public.subscriptions where team_id = tests.team_id('team-a')), 1,
  'a platform administrator reads the subscription');
select is((select count(*)::int from public.owned_subscription(tests.team_id('team-a'))), 0,
  'but does not manage it (the billing function answers 403)');
select tests.clear_authentication();
select throws_ok($$ select * from public.owned_subscription(gen_random_uuid()) $$, '42501', null, 'anon cannot call owned_subscription');

-- a plan granted on an ended Stripe subscription ---------------------------------------------------------
reset role;
-- Team B paid through Stripe; Stripe ended the subscription (stripe-webhook moved it to free).
update public.subscriptions set stripe_customer_id = 'cus_b', stripe_subscription_id = 'sub_b_ended', stripe_price_id = 'price_pro_usd_month',
  status = 'canceled', current_period_end = now() - interval '1 day', grace_until = now() + interval '1 day'
where team_id = tests.team_id('team-b');
select tests.authenticate_as('platform');
select lives_ok($$ select public.admin_set_team_plan(tests.team_id('team-b'), 'pro') $$, 'a platform administrator grants pro to the team');
select is((select status || '/' || (grace_until is null)::text || '/' || cancel_at_period_end::text || '/' || coalesce(stripe_subscription_id, '-')
           || '/' || coalesce(stripe_customer_id, '-') from public.subscriptions where team_id = tests.team_id('team-b')),
  'active/true/false/-/cus_b', 'the grant is active, without the ended Stripe subscription (the customer stays)');
select tests.authenticate_as_service_role();
select lives_ok($$ select public.apply_billing_deadlines() $$, 'the billing tick runs');
select is((select plan_id from public.teams where id = tests.team_id('team-b')), 'pro', 'and leaves the granted plan alone');
reset role;
update public.subscriptions set status = 'incomplete_expired' where team_id = tests.team_id('team-b');
update public.teams set plan_id = 'free' where id = tests.team_id('team-b');
update public.teams set plan_id = 'business' where id = tests.team_id('team-b');
select is((select status from public.subscriptions where team_id = tests.team_id('team-b')), 'active',
  'an incomplete_expired subscription too becomes a grant');
-- Stripe's own changes keep their status: a past-due subscription moving to another paid plan stays past due.
update public.subscriptions set status = 'past_due', stripe_subscription_id = 'sub_b_live', grace_until = now() + interval '7 days'
where team_id = tests.team_id('team-b');
update public.teams set plan_id = 'pro' where id = tests.team_id('team-b');
select is((select status || '/' || (grace_until is not null)::text || '/' || stripe_subscription_id from public.subscriptions
           where team_id = tests.team_id('team-b')),
  'past_due/true/sub_b_live', 'a live subscription''s status, grace period and id are unchanged by a plan move');
update public.subscriptions set status = 'canceled' where team_id = tests.team_id('team-b');
update public.teams set plan_id = 'free' where id = tests.team_id('team-b');

-- "powered by" follows the plan for visitors ---------------------------------------------------------------
reset role;
update public.teams set plan_id = 'pro' where id = tests.team_id('team-a');
insert into public.chats (id, bot_id, user_id, shared) values ('f5200000-0000-0000-0000-000000000001', tests.bot_id('A gallery'), tests.get_supabase_uid('stranger'), true);
select tests.authenticate_as('owner');
select lives_ok($$ update public.bots set show_powered_by = false where id = tests.bot_id('A gallery') $$, 'on pro the owner hides "powered by"');
select tests.clear_authentication();
select is((select show_powered_by from public.get_public_bot(tests.bot_id('A gallery'))), false, 'visitors do not see it on pro');
select tests.authenticate_as('other');
select is(public.get_shared_chat('f5200000-0000-0000-0000-000000000001') #>> '{bot,show_powered_by}', 'false', 'nor on a shared chat');
select tests.authenticate_as_service_role();
update public.teams set plan_id = 'free' where id = tests.team_id('team-a');
select tests.clear_authentication();
select is((select show_powered_by from public.get_public_bot(tests.bot_id('A gallery'))), true,
  'after the move to free visitors see it again (get_public_bot)');
select tests.authenticate_as('other');
select is(public.get_shared_chat('f5200000-0000-0000-0000-000000000001') #>> '{bot,show_powered_by}', 'true', 'and on a shared chat');
select is((select show_powered_by from public.get_public_bot(tests.bot_id('A unlisted'))), true, 'a bot showing it still shows it');
reset role;
select is((select show_powered_by from public.bots where id = tests.bot_id('A gallery')), false, 'the owner''s choice is kept');
update public.teams set plan_id = 'business' where id = tests.team_id('team-a');
select tests.clear_authentication();
select is((select show_powered_by from public.get_public_bot(tests.bot_id('A gallery'))), false, 'and applies again after an upgrade');
reset role;
update public.teams set plan_id = 'free' where id = tests.team_id('team-a');

-- a team paying through Stripe is not deleted ------------------------------------------------------------
reset role;
update public.teams set plan_id = 'pro' where id = tests.team_id('team-b');
update public.subscriptions set status = 'active', stripe_subscription_id = 'sub_b_paying', cancel_at_period_end = false
where team_id = tests.team_id('team-b');
select tests.authenticate_as('other');
select is(tests.error_of($$ delete from public.teams where id = tests.team_id('team-b') $$),
  'PT409|team_pays_through_stripe|', 'its owner cannot delete a team with a live Stripe subscription');
select tests.authenticate_as_service_role();
select throws_ok($$ delete from public.teams where id = tests.team_id('team-b') $$, 'PT409',
  'This team pays through Stripe: cancel its subscription on the billing page first, then delete the team',
  'nor can the service role');
reset role;
update public.teams set plan_id = 'pro' where created_by = tests.get_supabase_uid('stranger') and personal;
update public.subscriptions s set status = 'active', stripe_subscription_id = 'sub_stranger_paying'
from public.teams t where t.id = s.team_id and t.created_by = tests.get_supabase_uid('stranger') and t.personal;
select throws_ok($$ delete from auth.users where id = tests.get_supabase_uid('stranger') $$, 'PT409', null,
  'nor is a paying personal team deleted with its user''s account');
update public.subscriptions set cancel_at_period_end = true where team_id = tests.team_id('team-b');
select tests.authenticate_as('other');
select lives_ok($$ delete from public.teams where id = tests.team_id('team-b') $$,
  'once the cancellation at the period''s end is scheduled, the owner deletes it');
select is((select count(*)::int from public.teams where slug = 'team-b'), 0, 'and it is gone');
reset role;
update public.subscriptions set stripe_subscription_id = 'sub_a_ended', status = 'canceled' where team_id = tests.team_id('team-a');
select tests.authenticate_as('owner');
select lives_ok($$ delete from public.teams where id = tests.team_id('team-a') $$, 'a team whose Stripe subscription ended is deleted');

select * from finish();
rollback;
