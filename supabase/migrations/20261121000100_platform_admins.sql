-- Platform administrators and the shared building blocks of every later migration:
-- the `private` schema (helpers that policies call; not exposed over REST), the
-- timestamps trigger, the language-code domain, and `platform_admins`, a table only
-- the service role writes. Platform administrators may read everything for the
-- admin area; `public.is_platform_admin()` is what the frontend's admin guard calls.

-- schemas ---------------------------------------------------------------------
create schema if not exists private;
comment on schema private is 'Helper functions that RLS policies and triggers call. Not exposed over REST.';
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- types -----------------------------------------------------------------------
-- The ten interface languages, by the codes the product uses everywhere (jp, cn).
create domain public.language_code as text
  check (value in ('en', 'de', 'es', 'fr', 'it', 'jp', 'cn', 'el', 'pl', 'nl'));
comment on domain public.language_code is 'One of the ten interface languages: en de es fr it jp cn el pl nl.';

-- shared trigger functions ----------------------------------------------------
-- created_at/updated_at are set by the database, never trusted from the client.
create function private.set_timestamps() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.created_at := now();
    new.updated_at := now();
  else
    new.created_at := old.created_at;
    new.updated_at := now();
  end if;
  return new;
end;
$$;
comment on function private.set_timestamps() is 'Trigger: created_at on insert (kept on update), updated_at on every write.';

-- tables ----------------------------------------------------------------------
create table public.platform_admins (
  user_id uuid primary key references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
comment on table public.platform_admins is 'Platform administrators (the admin area). Written only by the service role.';

alter table public.platform_admins enable row level security;
-- Writes are for the service role only: no client role gets more than select.
revoke insert, update, delete, truncate, references, trigger on public.platform_admins from anon, authenticated;

-- functions -------------------------------------------------------------------
create function private.is_platform_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.platform_admins pa where pa.user_id = (select auth.uid())
  );
$$;
comment on function private.is_platform_admin() is 'True when the caller is listed in public.platform_admins.';
revoke execute on function private.is_platform_admin() from public;
grant execute on function private.is_platform_admin() to authenticated, service_role;

-- The admin guard's RPC. Anon may call it too and simply gets false, so the
-- guard needs no special case for signed-out visitors.
create function public.is_platform_admin() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select private.is_platform_admin()), false);
$$;
comment on function public.is_platform_admin() is 'RPC for the admin guard: is the caller a platform administrator?';
revoke execute on function public.is_platform_admin() from public;
grant execute on function public.is_platform_admin() to anon, authenticated, service_role;

-- policies --------------------------------------------------------------------
create policy "Platform admins can read platform admins" on public.platform_admins
  for select to authenticated
  using ((select private.is_platform_admin()));

create policy "Users can read their own platform admin row" on public.platform_admins
  for select to authenticated
  using (user_id = (select auth.uid()));
