-- Deleting a team that pays through Stripe left its Stripe subscription running (subscriptions go
-- with the team; nothing cancels in Stripe), and the next renewal's invoice.paid failed on the
-- missing team, retried by Stripe for days. A team with a live Stripe subscription (a paid plan,
-- not ended, no cancellation at the period's end scheduled) is now not deleted: by its owner
-- (the team page), by the service role, nor with its user's account (a personal team). Once the
-- owner cancels (at the period's end, on the billing page or in Stripe's portal) it may be deleted:
-- Stripe then bills nothing more, and its last events for the team are ignored by stripe-webhook.
create function private.team_pays_through_stripe(team_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.subscriptions s
    where s.team_id = team_pays_through_stripe.team_id
      and s.plan_id <> 'free'
      and s.stripe_subscription_id is not null
      and s.status not in ('canceled', 'incomplete_expired')
      and not s.cancel_at_period_end
  );
$$;
comment on function private.team_pays_through_stripe(uuid) is
  'Does the team have a live Stripe subscription that will renew (paid plan, not ended, no cancellation at the period''s end scheduled)?';
revoke execute on function private.team_pays_through_stripe(uuid) from public;

create function private.refuse_deleting_paying_team() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if private.team_pays_through_stripe(old.id) then
    raise exception 'This team pays through Stripe: cancel its subscription on the billing page first, then delete the team'
      using errcode = 'PT409', hint = 'team_pays_through_stripe';
  end if;
  return old;
end;
$$;
comment on function private.refuse_deleting_paying_team() is
  'Trigger: a team with a live Stripe subscription is not deleted (PT409, hint team_pays_through_stripe): cancel it first.';
revoke execute on function private.refuse_deleting_paying_team() from public;
create trigger teams_refuse_delete_while_paying before delete on public.teams
  for each row execute function private.refuse_deleting_paying_team();
