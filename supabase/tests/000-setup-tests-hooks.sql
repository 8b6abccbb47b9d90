-- Test helpers for every pgTAP file (runs first; the files share one database).
-- Our own version of basejump's supabase_test_helpers, written here so nothing is
-- installed over the network:
--   tests.create_supabase_user(identifier, email)   an auth user (profile + personal team via triggers)
--   tests.create_anonymous_user(identifier)         an anonymous auth user (chat visitor)
--   tests.get_supabase_uid(identifier)              its id
--   tests.authenticate_as(identifier)               role authenticated + request.jwt.claims, like PostgREST
--                                                   (aal2 when the user has a verified factor, else aal1)
--   tests.authenticate_as_at(identifier, aal)       the same at a given assurance level
--   tests.authenticate_as_service_role()            role service_role
--   tests.clear_authentication()                    role anon
--   tests.rls_enabled(schema [, table])             pgTAP assertion: RLS on every table
--   tests.create_team_fixture()                     the cast every file tests against (see below)
--   tests.team_id(slug), tests.bot_id(name)         ids of fixture rows, from any role
--   tests.count_all(table [, condition])            rows of a table whatever RLS says, from any role
--                                                   (the files run on an empty and on a seeded database:
--                                                   "sees every row" is compared with this, not a number)
-- This file commits; each test file runs in a transaction it rolls back.

begin;

create schema if not exists tests;
grant usage on schema tests to anon, authenticated, service_role;

create or replace function tests.create_supabase_user(identifier text, email text default null)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := gen_random_uuid();
begin
  insert into auth.users (
    instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
    raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous
  ) values (
    '00000000-0000-0000-0000-000000000000', uid, 'authenticated', 'authenticated',
    lower(coalesce(create_supabase_user.email, create_supabase_user.identifier || '@test.parley.local')),
    '', now(),
    '{"provider":"email","providers":["email"]}',
    jsonb_build_object('test_identifier', create_supabase_user.identifier, 'display_name', create_supabase_user.identifier),
    now(), now(), false
  );
  return uid;
end;
$$;

create or replace function tests.create_anonymous_user(identifier text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  uid uuid := gen_random_uuid();
begin
  insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
  values ('00000000-0000-0000-0000-000000000000', uid, 'authenticated', 'authenticated', '{}',
          jsonb_build_object('test_identifier', create_anonymous_user.identifier), now(), now(), true);
  return uid;
end;
$$;

create or replace function tests.get_supabase_user(identifier text)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  found_user jsonb;
begin
  select jsonb_build_object('id', u.id, 'email', u.email, 'is_anonymous', u.is_anonymous,
    'has_verified_factor', exists (select 1 from auth.mfa_factors f where f.user_id = u.id and f.status = 'verified'))
  into found_user
  from auth.users u
  where u.raw_user_meta_data ->> 'test_identifier' = get_supabase_user.identifier
  limit 1;
  if found_user is null then
    raise exception 'tests: no user with identifier %', get_supabase_user.identifier;
  end if;
  return found_user;
end;
$$;

create or replace function tests.get_supabase_uid(identifier text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select (tests.get_supabase_user(get_supabase_uid.identifier) ->> 'id')::uuid;
$$;

-- Not security definer: a definer function may not change the role.
-- The session's assurance level: aal2 for a user with a verified second factor (as after
-- auth.mfa challenge + verify), aal1 otherwise; tests.authenticate_as_at names it.
create or replace function tests.authenticate_as_at(identifier text, aal text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  u jsonb := tests.get_supabase_user(authenticate_as_at.identifier);
begin
  perform set_config('role', 'authenticated', true);
  perform set_config('request.jwt.claims', jsonb_build_object(
    'sub', u ->> 'id',
    'email', u ->> 'email',
    'role', 'authenticated',
    'aud', 'authenticated',
    'aal', authenticate_as_at.aal,
    'is_anonymous', (u ->> 'is_anonymous')::boolean
  )::text, true);
end;
$$;

create or replace function tests.authenticate_as(identifier text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform tests.authenticate_as_at(authenticate_as.identifier,
    case when (tests.get_supabase_user(authenticate_as.identifier) ->> 'has_verified_factor')::boolean then 'aal2' else 'aal1' end);
end;
$$;

create or replace function tests.authenticate_as_service_role()
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('role', 'service_role', true);
  perform set_config('request.jwt.claims', '{"role":"service_role"}', true);
end;
$$;

create or replace function tests.clear_authentication()
returns void
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('role', 'anon', true);
  perform set_config('request.jwt.claims', '{"role":"anon"}', true);
end;
$$;

create or replace function tests.rls_enabled(testing_schema text)
returns text
language sql
-- pgTAP's own functions call each other unqualified.
set search_path = extensions, pg_catalog
as $$
  select extensions.is(
    (select count(*)::integer
     from pg_catalog.pg_class c
     join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where n.nspname = rls_enabled.testing_schema
       and c.relkind in ('r', 'p')
       and not c.relrowsecurity),
    0,
    'All tables in the ' || rls_enabled.testing_schema || ' schema have row level security enabled'
  );
$$;

create or replace function tests.rls_enabled(testing_schema text, testing_table text)
returns text
language sql
-- pgTAP's own functions call each other unqualified.
set search_path = extensions, pg_catalog
as $$
  select extensions.ok(
    coalesce((select c.relrowsecurity
              from pg_catalog.pg_class c
              join pg_catalog.pg_namespace n on n.oid = c.relnamespace
              where n.nspname = rls_enabled.testing_schema and c.relname = rls_enabled.testing_table), false),
    'Row level security is enabled on ' || rls_enabled.testing_schema || '.' || rls_enabled.testing_table
  );
$$;

create or replace function tests.team_id(slug text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select t.id from public.teams t where t.slug = team_id.slug;
$$;

create or replace function tests.bot_id(name text)
returns uuid
language sql
stable
security definer
set search_path = ''
as $$
  select b.id from public.bots b where b.name = bot_id.name;
$$;

create or replace function tests.count_all(relation regclass, condition text default 'true')
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  n integer;
begin
  execute format('select count(*)::int from %s where %s', relation, condition) into n;
  return n;
end;
$$;

-- The error a statement raises, as 'sqlstate|hint|detail' (null when it succeeds), run as the
-- current role: for errors whose hint and detail matter (the plan limit error PT402).
create or replace function tests.error_of(statement text)
returns text
language plpgsql
as $$
declare
  c text; h text; d text;
begin
  execute statement;
  return null;
exception when others then
  get stacked diagnostics c = returned_sqlstate, h = pg_exception_hint, d = pg_exception_detail;
  return c || '|' || coalesce(h, '') || '|' || coalesce(d, '');
end;
$$;

-- The cast: 'owner' and 'admin' of team-a; 'other' owns team-b (a member of
-- another team); 'stranger' is signed in and in no shared team; 'platform' is a
-- platform administrator. Bots: 'A private', 'A gallery' (public, listed),
-- 'A unlisted' (public, not listed) in team-a; 'B private' in team-b.
-- Call it as the superuser at the start of a test file.
create or replace function tests.create_team_fixture()
returns void
language plpgsql
set search_path = ''
as $$
declare
  owner_id uuid := tests.create_supabase_user('owner');
  admin_id uuid := tests.create_supabase_user('admin');
  other_id uuid := tests.create_supabase_user('other');
  platform_id uuid := tests.create_supabase_user('platform');
  team_a uuid;
  team_b uuid;
begin
  perform tests.create_supabase_user('stranger');
  insert into public.teams (name, slug, created_by) values ('Team A', 'team-a', owner_id) returning id into team_a;
  insert into public.teams (name, slug, created_by) values ('Team B', 'team-b', other_id) returning id into team_b;
  insert into public.team_members (team_id, user_id, role) values (team_a, admin_id, 'admin');
  insert into public.platform_admins (user_id) values (platform_id);
  -- Platform administrators act at aal2 only: 'platform' has a verified TOTP factor, so
  -- tests.authenticate_as('platform') signs in at aal2 (tests.authenticate_as_at(.., 'aal1') tests the refusal).
  insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
  values (gen_random_uuid(), platform_id, 'fixture', 'totp', 'verified', now(), now(), 'JBSWY3DPEHPK3PXP');
  insert into public.bots (team_id, name, visibility, gallery_listed, created_by, instructions) values
    (team_a, 'A private', 'private', false, owner_id, 'secret sauce'),
    (team_a, 'A gallery', 'public', true, owner_id, 'be helpful'),
    (team_a, 'A unlisted', 'public', false, admin_id, 'be helpful'),
    (team_b, 'B private', 'private', false, other_id, 'other sauce');
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;

commit;

begin;
select plan(8);

select tests.create_team_fixture();

select isnt(tests.get_supabase_uid('owner'), null, 'create_supabase_user makes a user that get_supabase_uid finds');
select throws_ok($$ select tests.get_supabase_uid('nobody') $$, 'P0001', 'tests: no user with identifier nobody', 'unknown identifiers are refused');

select tests.authenticate_as('owner');
select is(auth.uid(), tests.get_supabase_uid('owner'), 'authenticate_as sets auth.uid()');
select is(current_user::text, 'authenticated', 'authenticate_as switches to the authenticated role');
select is(auth.email(), 'owner@test.parley.local', 'authenticate_as puts the email in the claims');

select tests.clear_authentication();
select is(auth.uid(), null, 'clear_authentication leaves no user');
select is(current_user::text, 'anon', 'clear_authentication switches to anon');

reset role;
select tests.rls_enabled('public');

select * from finish();
rollback;
