-- /billing (checkout, change, cancel, portal) decided "owner" by whether the caller could read the
-- team's subscription row; the policy "Platform admins can read subscriptions" let every platform
-- administrator do that, so one could change, cancel or open the portal of any team's Stripe
-- subscription, unaudited (a platform administrator reads every team's data but changes none).
-- The billing function now asks this: the subscription only when the caller is one of the team's
-- owners (private.has_team_role), whoever else may read it.
create function public.owned_subscription(team_id uuid)
returns setof public.subscriptions
language sql
stable
set search_path = ''
as $$
  select s.*
  from public.subscriptions s
  where s.team_id = owned_subscription.team_id
    and (select private.has_team_role(owned_subscription.team_id, 'owner'));
$$;
comment on function public.owned_subscription(uuid) is
  'The team''s subscription if the caller is one of its owners (no row otherwise, platform administrators included): who may manage billing (the billing function).';
revoke execute on function public.owned_subscription(uuid) from public, anon;
grant execute on function public.owned_subscription(uuid) to authenticated;
