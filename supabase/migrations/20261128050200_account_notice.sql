-- "You already have an account" (issue 16): signing up with an address that has a confirmed
-- account answers exactly like a new sign-up (auth shows no difference, so nobody learns which
-- addresses have accounts) and auth sends nothing. The sign-up screen then asks the
-- account-notice function to tell the address's owner by e-mail; the function needs to know
-- whether the address has a confirmed account and in which language to write, which this
-- function answers for the service role only.
create function public.account_notice_recipient(email text) returns table (user_id uuid, locale text)
language sql
stable
security definer
set search_path = ''
as $$
  select u.id, nullif(u.raw_user_meta_data ->> 'locale', '')
  from auth.users u
  where lower(u.email) = lower(btrim(account_notice_recipient.email))
    and u.email_confirmed_at is not null
    and u.deleted_at is null
    and not coalesce(u.is_anonymous, false)
  limit 1;
$$;
comment on function public.account_notice_recipient(text) is
  'Service role only: the confirmed account with this e-mail address and its interface language, null when none is stored (account-notice).';
revoke execute on function public.account_notice_recipient(text) from public, anon, authenticated;
grant execute on function public.account_notice_recipient(text) to service_role;
