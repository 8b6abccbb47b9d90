-- Platform administrators act only from a session that passed a second factor (aal2).
-- private.is_platform_admin() is what every admin policy, require_platform_admin() (the first
-- line of each admin_* function), public.is_platform_admin() (the admin guard, and the admin
-- and admin-platform edge functions, which ask it with the caller's token) rely on: restated
-- here so that a listed administrator whose token says aal1 (password, magic link or OAuth
-- only) is treated like anyone else. Hosted Supabase and the local stack both put `aal` in
-- the access token (auth.jwt()->>'aal').
--
-- public.admin_access() tells the admin guard why the area is closed: 'granted', 'aal2_required'
-- (listed, but this session has not passed a second factor) or 'none'. It reveals no more than
-- the policy "Users can read their own platform admin row" already lets the caller read.

create or replace function private.is_platform_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt() ->> 'aal'), '') = 'aal2'
     and exists (select 1 from public.platform_admins pa where pa.user_id = (select auth.uid()));
$$;
comment on function private.is_platform_admin() is
  'True when the caller is listed in public.platform_admins and their session passed a second factor (aal2).';

create function public.admin_access() returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when (select private.is_platform_admin()) then 'granted'
    when exists (select 1 from public.platform_admins pa where pa.user_id = (select auth.uid())) then 'aal2_required'
    else 'none'
  end;
$$;
comment on function public.admin_access() is
  'For the admin guard: granted, aal2_required (a platform administrator whose session has no second factor yet) or none.';
revoke execute on function public.admin_access() from public;
grant execute on function public.admin_access() to anon, authenticated, service_role;
