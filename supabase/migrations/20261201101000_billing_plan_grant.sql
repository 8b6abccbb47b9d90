-- A paid plan set outside Stripe (a platform administrator's admin_set_team_plan, the service role)
-- on a team whose Stripe subscription ended (canceled, incomplete_expired) kept that status, and the
-- billing tick (apply_billing_deadlines: non-free and canceled → free) undid the grant a minute later.
-- Such a move is now a grant: the subscription is active, with no grace period and no cancellation
-- pending, and no longer points at the ended Stripe subscription (so the owner may check out a new
-- one, and "cancel" does not call Stripe about the old one). The customer id stays for the record.
-- Stripe's own changes are unaffected: stripe-webhook writes the subscription's status (not an ended
-- one for a paid plan) before it moves teams.plan_id.
-- A migration replaces a function whole: this is 20261128010000_billing's with the grant added.
create or replace function private.follow_team_plan() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.subscriptions s
  set plan_id = new.plan_id,
      status = case when new.plan_id <> 'free' and s.status in ('canceled', 'incomplete_expired') then 'active'
                    when new.plan_id <> 'free' then s.status
                    when s.status in ('past_due', 'unpaid', 'canceled', 'incomplete_expired') then 'canceled'
                    else 'active' end,
      cancel_at_period_end = case when new.plan_id = 'free' or s.status in ('canceled', 'incomplete_expired') then false
                                  else s.cancel_at_period_end end,
      grace_until = case when new.plan_id = 'free' or s.status in ('canceled', 'incomplete_expired') then null else s.grace_until end,
      stripe_subscription_id = case when new.plan_id <> 'free' and s.status in ('canceled', 'incomplete_expired') then null
                                    else s.stripe_subscription_id end,
      stripe_price_id = case when new.plan_id <> 'free' and s.status in ('canceled', 'incomplete_expired') then null
                             else s.stripe_price_id end
  where s.team_id = new.id and s.plan_id is distinct from new.plan_id;
  return null;
end;
$$;
comment on function private.follow_team_plan() is
  'Trigger: a change of teams.plan_id (billing or a platform administrator) is copied to the team''s subscription; a paid plan set on an ended Stripe subscription is a grant (active, no Stripe subscription).';
revoke execute on function private.follow_team_plan() from public;
