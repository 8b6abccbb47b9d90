-- The administrator area's lists, detail reads and SQL actions (issue 23).
--
-- Every read is a security-definer function named admin_* that first checks
-- private.is_platform_admin() and raises 42501 for anyone else; the app never reads other
-- people's rows through table policies for the admin area.
--
-- Lists (users, teams, team members, bots, chats, audit log) page by KEYSET: the caller passes
-- the sort value and id of the last row it has (after_value, after_id) and gets the rows after
-- it, so page 10 000 costs what page 1 costs. Each list sorts by a small whitelist of indexed
-- columns, ties broken by id; the indexes below make first page, deep page and search fast at a
-- million rows (bench/admin/ shows the plans).
--
-- Users come from public.profiles (one per auth user, created with it) joined to auth.users by
-- primary key: profiles carries the indexes (auth.users belongs to the auth service and takes no
-- index of ours on hosted Supabase). A user search matches the exact e-mail (GoTrue's
-- lower(email) index), an identity e-mail prefix (GoTrue's identities_email_idx) or a part of the
-- display name (trigram), or the id itself. (The exact e-mail is asked per instance_id, GoTrue's
-- index being on (instance_id, lower(email)): without it the lookup reads every user.)
--
-- Actions that are row changes live here too, each writing the audit log in the same
-- transaction: admin_set_team_plan, admin_unlist_bot, admin_delete_bot. Actions that need the
-- auth admin API (ban, unban, password reset, delete a user) are in the `admin` edge function.

-- indexes ---------------------------------------------------------------------------------------
create index profiles_created_at_id_idx on public.profiles (created_at, id);
create index profiles_display_name_trgm_idx on public.profiles using gin (display_name extensions.gin_trgm_ops);
create index teams_created_at_id_idx on public.teams (created_at, id);
create index teams_name_id_idx on public.teams (name, id);
create index teams_search_trgm_idx on public.teams using gin ((name || ' ' || slug) extensions.gin_trgm_ops);
create index team_members_created_at_id_idx on public.team_members (created_at, id);
create index bots_created_at_id_idx on public.bots (created_at, id);
create index bots_name_id_idx on public.bots (name, id);
create index bots_name_trgm_idx on public.bots using gin (name extensions.gin_trgm_ops);
create index chats_created_at_id_idx on public.chats (created_at, id);
create index chats_message_count_id_idx on public.chats (message_count, id);
create index chats_title_trgm_idx on public.chats using gin (title extensions.gin_trgm_ops);

-- helpers ---------------------------------------------------------------------------------------
create function private.require_platform_admin() returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not coalesce((select private.is_platform_admin()), false) then
    raise exception 'Only platform administrators may do this' using errcode = '42501';
  end if;
end;
$$;
comment on function private.require_platform_admin() is 'Raises 42501 unless the caller is a platform administrator; the first line of every admin_* function.';
revoke execute on function private.require_platform_admin() from public;
grant execute on function private.require_platform_admin() to authenticated, service_role;

-- A LIKE pattern that matches `term` literally (its % _ and \ escaped), or null for no term.
create function private.like_pattern(term text, prefix_only boolean default false) returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when nullif(btrim(term), '') is null then null
    when prefix_only then replace(replace(replace(btrim(term), '\', '\\'), '%', '\%'), '_', '\_') || '%'
    else '%' || replace(replace(replace(btrim(term), '\', '\\'), '%', '\%'), '_', '\_') || '%'
  end;
$$;
comment on function private.like_pattern(text, boolean) is 'A LIKE/ILIKE pattern matching a search term literally (contains, or starts with).';
revoke execute on function private.like_pattern(text, boolean) from public;
grant execute on function private.like_pattern(text, boolean) to authenticated, service_role;

-- The keyset clauses of a list query: rows after ($1 sort value, $2 id) in the given order,
-- ordered and limited to $3. `sort_column` and `sort_type` come from each function's whitelist.
create function private.is_uuid(term text) returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(btrim(term) ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', false);
$$;
comment on function private.is_uuid(text) is 'Is a search term a uuid (an id pasted into a search box)?';
revoke execute on function private.is_uuid(text) from public;
grant execute on function private.is_uuid(text) to authenticated, service_role;

create function private.admin_keyset(alias text, sort_column text, sort_type text, descending boolean, has_cursor boolean)
returns table (condition text, ordering text)
language sql
immutable
set search_path = ''
as $$
  select
    case when has_cursor
      then format('(%1$s.%2$I, %1$s.id) %3$s ($1::%4$s, $2)', alias, sort_column, case when descending then '<' else '>' end, sort_type)
      else 'true' end,
    format('order by %1$s.%2$I %3$s, %1$s.id %3$s limit $3', alias, sort_column, case when descending then 'desc' else 'asc' end);
$$;
comment on function private.admin_keyset(text, text, text, boolean, boolean) is 'The where and order-by clauses of an admin list page after a (sort value, id) cursor.';
revoke execute on function private.admin_keyset(text, text, text, boolean, boolean) from public;
grant execute on function private.admin_keyset(text, text, text, boolean, boolean) to authenticated, service_role;

create function private.admin_page_size(page_size integer) returns integer
language sql
immutable
set search_path = ''
as $$
  select least(greatest(coalesce(page_size, 50), 1), 500);
$$;
comment on function private.admin_page_size(integer) is 'An admin list page holds 1 to 500 rows (50 by default).';
revoke execute on function private.admin_page_size(integer) from public;
grant execute on function private.admin_page_size(integer) to authenticated, service_role;

create function private.admin_check_sort(sort text, allowed text[]) returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if not (sort = any (allowed)) then
    raise exception 'Sort by one of: %', array_to_string(allowed, ', ') using errcode = '22023';
  end if;
end;
$$;
comment on function private.admin_check_sort(text, text[]) is 'Raises 22023 (HTTP 400) for a sort column outside the list''s whitelist.';
revoke execute on function private.admin_check_sort(text, text[]) from public;
grant execute on function private.admin_check_sort(text, text[]) to authenticated, service_role;

-- lists -----------------------------------------------------------------------------------------
create function public.admin_list_users(
  search text default null,
  kind_filter text default 'all',
  descending boolean default true,
  after_value text default null,
  after_id uuid default null,
  page_size integer default 50
) returns table (
  id uuid, email text, display_name text, providers text[], created_at timestamptz,
  last_sign_in_at timestamptz, banned_until timestamptz, is_anonymous boolean, teams jsonb
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  k record;
  term text := nullif(btrim(search), '');
  matches text := 'true';
begin
  perform private.require_platform_admin();
  if coalesce(kind_filter, 'all') not in ('all', 'registered', 'anonymous', 'banned') then
    raise exception 'kind_filter is one of: all, registered, anonymous, banned' using errcode = '22023';
  end if;
  select * into k from private.admin_keyset('p', 'created_at', 'timestamptz', coalesce(descending, true), after_value is not null and after_id is not null);
  if private.is_uuid(term) then
    matches := 'p.id = $4::uuid';
  elsif term is not null then
    -- The exact e-mail, an identity e-mail prefix or part of the display name.
    matches := $m$p.id in (
        select u2.id from auth.users u2
          where u2.instance_id = '00000000-0000-0000-0000-000000000000' and lower(u2.email::text) = lower($4)
        union all select u3.id from auth.users u3 where u3.instance_id is null and lower(u3.email::text) = lower($4)
        union all select i.user_id from auth.identities i where i.email like lower(private.like_pattern($4, true))
        union all select p2.id from public.profiles p2 where p2.display_name ilike private.like_pattern($4))$m$;
  end if;
  return query execute format($q$
    with page as (
      select p.id, p.created_at, p.display_name
      from public.profiles p
      join auth.users u on u.id = p.id
      where %1$s and %2$s
        and case $5
          when 'registered' then not u.is_anonymous
          when 'anonymous' then u.is_anonymous
          when 'banned' then u.banned_until > now()
          else true end
      %3$s
    )
    select pg.id, u.email::text, pg.display_name,
      array(select distinct i.provider from auth.identities i where i.user_id = pg.id order by 1),
      pg.created_at, u.last_sign_in_at, u.banned_until, u.is_anonymous,
      (select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'role', tm.role) order by t.name), '[]'::jsonb)
       from public.team_members tm join public.teams t on t.id = tm.team_id where tm.user_id = pg.id)
    from page pg join auth.users u on u.id = pg.id
    %4$s$q$,
    k.condition, matches, k.ordering, replace(k.ordering, 'p.', 'pg.'))
  using after_value, after_id, private.admin_page_size(page_size), term, coalesce(kind_filter, 'all');
end;
$$;
comment on function public.admin_list_users(text, text, boolean, text, uuid, integer) is
  'Platform administrators: a page of users (newest first by default) after a (created_at, id) cursor; search by id, exact e-mail, e-mail prefix or display name; kind all/registered/anonymous/banned.';

create function public.admin_list_teams(
  search text default null,
  plan_filter text default null,
  personal_filter boolean default null,
  member_filter uuid default null,
  sort text default 'created_at',
  descending boolean default true,
  after_value text default null,
  after_id uuid default null,
  page_size integer default 50
) returns table (
  id uuid, name text, slug text, personal boolean, plan_id text, created_at timestamptz,
  member_count integer, bot_count integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  k record;
begin
  perform private.require_platform_admin();
  perform private.admin_check_sort(sort, array['created_at', 'name']);
  select * into k from private.admin_keyset('t', sort, case sort when 'name' then 'text' else 'timestamptz' end,
    coalesce(descending, true), after_value is not null and after_id is not null);
  return query execute format($q$
    with page as (
      select t.id, t.name, t.slug, t.personal, t.plan_id, t.created_at
      from public.teams t
      where %1$s
        and ($4::text is null or (t.name || ' ' || t.slug) ilike $4)
        and ($5::text is null or t.plan_id = $5)
        and ($6::boolean is null or t.personal = $6)
        and ($7::uuid is null or t.id in (select tm.team_id from public.team_members tm where tm.user_id = $7))
      %2$s
    )
    select t.id, t.name, t.slug, t.personal, t.plan_id, t.created_at,
      (select count(*)::int from public.team_members tm where tm.team_id = t.id),
      (select count(*)::int from public.bots b where b.team_id = t.id)
    from page t
    %3$s$q$,
    k.condition, k.ordering, replace(k.ordering, 'limit $3', ''))
  using after_value, after_id, private.admin_page_size(page_size), private.like_pattern(search), plan_filter, personal_filter, member_filter;
end;
$$;
comment on function public.admin_list_teams(text, text, boolean, uuid, text, boolean, text, uuid, integer) is
  'Platform administrators: a page of teams after a (sort value, id) cursor; search name or slug; filter by plan, personal, member; sort created_at or name.';

create function public.admin_list_team_members(
  team_filter uuid default null,
  user_filter uuid default null,
  role_filter public.team_role default null,
  descending boolean default true,
  after_value text default null,
  after_id uuid default null,
  page_size integer default 50
) returns table (
  id uuid, team_id uuid, team_name text, user_id uuid, email text, display_name text,
  role public.team_role, created_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  k record;
begin
  perform private.require_platform_admin();
  select * into k from private.admin_keyset('m', 'created_at', 'timestamptz', coalesce(descending, true), after_value is not null and after_id is not null);
  return query execute format($q$
    with page as (
      select m.id, m.team_id, m.user_id, m.role, m.created_at
      from public.team_members m
      where %1$s
        and ($4::uuid is null or m.team_id = $4)
        and ($5::uuid is null or m.user_id = $5)
        and ($6::public.team_role is null or m.role = $6)
      %2$s
    )
    select m.id, m.team_id, t.name, m.user_id, u.email::text, p.display_name, m.role, m.created_at
    from page m
    join public.teams t on t.id = m.team_id
    left join auth.users u on u.id = m.user_id
    left join public.profiles p on p.id = m.user_id
    %3$s$q$,
    k.condition, k.ordering, replace(k.ordering, 'limit $3', ''))
  using after_value, after_id, private.admin_page_size(page_size), team_filter, user_filter, role_filter;
end;
$$;
comment on function public.admin_list_team_members(uuid, uuid, public.team_role, boolean, text, uuid, integer) is
  'Platform administrators: a page of memberships after a (created_at, id) cursor; filter by team, user, role.';

create function public.admin_list_bots(
  search text default null,
  team_filter uuid default null,
  visibility_filter public.bot_visibility default null,
  listed_filter boolean default null,
  sort text default 'created_at',
  descending boolean default true,
  after_value text default null,
  after_id uuid default null,
  page_size integer default 50
) returns table (
  id uuid, name text, team_id uuid, team_name text, visibility public.bot_visibility,
  gallery_listed boolean, model_provider text, language text, created_at timestamptz, chat_count integer
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  k record;
begin
  perform private.require_platform_admin();
  perform private.admin_check_sort(sort, array['created_at', 'name']);
  select * into k from private.admin_keyset('b', sort, case sort when 'name' then 'text' else 'timestamptz' end,
    coalesce(descending, true), after_value is not null and after_id is not null);
  return query execute format($q$
    with page as (
      select b.id, b.name, b.team_id, b.visibility, b.gallery_listed, b.model_provider, b.language, b.created_at
      from public.bots b
      where %1$s
        and ($4::text is null or b.name ilike $4)
        and ($8::uuid is null or b.id = $8)
        and ($5::uuid is null or b.team_id = $5)
        and ($6::public.bot_visibility is null or b.visibility = $6)
        and ($7::boolean is null or b.gallery_listed = $7)
      %2$s
    )
    select b.id, b.name, b.team_id, t.name, b.visibility, b.gallery_listed, b.model_provider, b.language::text, b.created_at,
      (select count(*)::int from public.chats c where c.bot_id = b.id)
    from page b join public.teams t on t.id = b.team_id
    %3$s$q$,
    k.condition, k.ordering, replace(k.ordering, 'limit $3', ''))
  using after_value, after_id, private.admin_page_size(page_size),
    case when private.is_uuid(search) then null else private.like_pattern(search) end, team_filter,
    visibility_filter, listed_filter, case when private.is_uuid(search) then btrim(search)::uuid end;
end;
$$;
comment on function public.admin_list_bots(text, uuid, public.bot_visibility, boolean, text, boolean, text, uuid, integer) is
  'Platform administrators: a page of bots after a (sort value, id) cursor; search name or id; filter by team, visibility, gallery listing; sort created_at or name.';

create function public.admin_list_chats(
  search text default null,
  bot_filter uuid default null,
  user_filter uuid default null,
  channel_filter text default null,
  sort text default 'created_at',
  descending boolean default true,
  after_value text default null,
  after_id uuid default null,
  page_size integer default 50
) returns table (
  id uuid, bot_id uuid, bot_name text, user_id uuid, user_email text, channel text, title text,
  message_count integer, last_message_at timestamptz, created_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  k record;
begin
  perform private.require_platform_admin();
  perform private.admin_check_sort(sort, array['created_at', 'message_count']);
  select * into k from private.admin_keyset('c', sort, case sort when 'message_count' then 'integer' else 'timestamptz' end,
    coalesce(descending, true), after_value is not null and after_id is not null);
  return query execute format($q$
    with page as (
      select c.id, c.bot_id, c.user_id, c.channel, c.title, c.message_count, c.last_message_at, c.created_at
      from public.chats c
      where %1$s
        and ($4::text is null or c.title ilike $4)
        and ($5::uuid is null or c.bot_id = $5)
        and ($6::uuid is null or c.user_id = $6)
        and ($7::text is null or c.channel = $7)
      %2$s
    )
    select c.id, c.bot_id, b.name, c.user_id, u.email::text, c.channel, c.title, c.message_count, c.last_message_at, c.created_at
    from page c
    join public.bots b on b.id = c.bot_id
    left join auth.users u on u.id = c.user_id
    %3$s$q$,
    k.condition, k.ordering, replace(k.ordering, 'limit $3', ''))
  using after_value, after_id, private.admin_page_size(page_size), private.like_pattern(search), bot_filter, user_filter, channel_filter;
end;
$$;
comment on function public.admin_list_chats(text, uuid, uuid, text, text, boolean, text, uuid, integer) is
  'Platform administrators: a page of chats after a (sort value, id) cursor; search the title; filter by bot, user, channel; sort created_at or message_count.';

create function public.admin_list_audit_log(
  search text default null,
  action_filter text default null,
  target_type_filter text default null,
  target_id_filter text default null,
  before_id bigint default null,
  page_size integer default 50
) returns setof public.admin_audit_log
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_platform_admin();
  return query
    select l.*
    from public.admin_audit_log l
    where (before_id is null or l.id < before_id)
      and (action_filter is null or l.action = action_filter)
      and (target_type_filter is null or l.target_type = target_type_filter)
      and (target_id_filter is null or l.target_id = target_id_filter)
      and (nullif(btrim(search), '') is null
           or l.action ilike private.like_pattern(search)
           or l.actor_email ilike private.like_pattern(search)
           or l.target_id = btrim(search))
    order by l.id desc
    limit private.admin_page_size(page_size);
end;
$$;
comment on function public.admin_list_audit_log(text, text, text, text, bigint, integer) is
  'Platform administrators: the audit log, newest first, before an id cursor; search action, actor e-mail or target id; filter by action and target.';

-- details ---------------------------------------------------------------------------------------
create function private.admin_recent_audit(target_type text, target_id text) returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(jsonb_agg(to_jsonb(l) order by l.id desc), '[]'::jsonb)
  from (select * from public.admin_audit_log a
        where a.target_type = admin_recent_audit.target_type and a.target_id = admin_recent_audit.target_id
        order by a.id desc limit 20) l;
$$;
comment on function private.admin_recent_audit(text, text) is 'The latest 20 audit entries about one target, as JSON.';
revoke execute on function private.admin_recent_audit(text, text) from public;
grant execute on function private.admin_recent_audit(text, text) to authenticated, service_role;

create function public.admin_get_user(user_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb;
begin
  perform private.require_platform_admin();
  select jsonb_build_object(
    'id', u.id,
    'email', u.email,
    'display_name', p.display_name,
    'preferred_language', p.preferred_language,
    'is_anonymous', u.is_anonymous,
    'created_at', u.created_at,
    'email_confirmed_at', u.email_confirmed_at,
    'last_sign_in_at', u.last_sign_in_at,
    'banned_until', u.banned_until,
    'is_platform_admin', exists (select 1 from public.platform_admins pa where pa.user_id = u.id),
    'identities', (select coalesce(jsonb_agg(jsonb_build_object('provider', i.provider, 'email', i.email,
                     'created_at', i.created_at, 'last_sign_in_at', i.last_sign_in_at) order by i.created_at), '[]'::jsonb)
                   from auth.identities i where i.user_id = u.id),
    'teams', (select coalesce(jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'personal', t.personal,
                'plan_id', t.plan_id, 'role', tm.role,
                'bot_count', (select count(*) from public.bots b where b.team_id = t.id)) order by t.personal, t.name), '[]'::jsonb)
              from public.team_members tm join public.teams t on t.id = tm.team_id where tm.user_id = u.id),
    'chat_count', (select count(*) from public.chats c where c.user_id = u.id),
    'recent_chats', (select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc), '[]'::jsonb)
                     from (select c.id, c.bot_id, b.name as bot_name, c.title, c.channel, c.message_count, c.created_at
                           from public.chats c join public.bots b on b.id = c.bot_id
                           where c.user_id = u.id order by c.created_at desc limit 10) c),
    'audit', private.admin_recent_audit('user', u.id::text)
  ) into result
  from auth.users u
  left join public.profiles p on p.id = u.id
  where u.id = admin_get_user.user_id;
  if result is null then
    raise exception 'No user with this id' using errcode = 'PT404';
  end if;
  return result;
end;
$$;
comment on function public.admin_get_user(uuid) is 'Platform administrators: everything about one user (account, sign-in methods, teams, chats, audit entries).';

create function public.admin_get_bot(bot_id uuid) returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  result jsonb;
begin
  perform private.require_platform_admin();
  select jsonb_build_object(
    'id', b.id,
    'name', b.name,
    'description', b.description,
    'team', jsonb_build_object('id', t.id, 'name', t.name, 'slug', t.slug, 'plan_id', t.plan_id, 'personal', t.personal),
    'visibility', b.visibility,
    'gallery_listed', b.gallery_listed,
    'language', b.language,
    'model_provider', b.model_provider,
    'model', b.model,
    'created_at', b.created_at,
    'updated_at', b.updated_at,
    'created_by', case when b.created_by is null then null
                  else jsonb_build_object('id', b.created_by, 'email', (select u.email from auth.users u where u.id = b.created_by)) end,
    'chat_count', (select count(*) from public.chats c where c.bot_id = b.id),
    'message_count', (select count(*) from public.messages m where m.bot_id = b.id),
    'data_source_count', (select count(*) from public.data_sources d where d.bot_id = b.id),
    'channels', (select coalesce(jsonb_agg(jsonb_build_object('id', ch.id, 'type', ch.type, 'name', ch.name, 'enabled', ch.enabled,
                   'status', ch.status, 'message_count', ch.message_count) order by ch.created_at), '[]'::jsonb)
                 from public.channels ch where ch.bot_id = b.id),
    'recent_chats', (select coalesce(jsonb_agg(to_jsonb(c) order by c.created_at desc), '[]'::jsonb)
                     from (select c.id, c.user_id, c.title, c.channel, c.message_count, c.created_at
                           from public.chats c where c.bot_id = b.id order by c.created_at desc limit 10) c),
    'audit', private.admin_recent_audit('bot', b.id::text)
  ) into result
  from public.bots b join public.teams t on t.id = b.team_id
  where b.id = admin_get_bot.bot_id;
  if result is null then
    raise exception 'No bot with this id' using errcode = 'PT404';
  end if;
  return result;
end;
$$;
comment on function public.admin_get_bot(uuid) is 'Platform administrators: everything about one bot (team, settings, counts, channels, chats, audit entries).';

-- actions ---------------------------------------------------------------------------------------
create function public.admin_set_team_plan(team_id uuid, plan_id text) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  old_plan text;
begin
  perform private.require_platform_admin();
  if not exists (select 1 from public.plans pl where pl.id = admin_set_team_plan.plan_id) then
    raise exception 'No plan with this id' using errcode = '22023';
  end if;
  select t.plan_id into old_plan from public.teams t where t.id = admin_set_team_plan.team_id for update;
  if not found then
    raise exception 'No team with this id' using errcode = 'PT404';
  end if;
  if old_plan = admin_set_team_plan.plan_id then
    return;
  end if;
  -- A team paying through Stripe changes plan there (its customer portal, or Stripe's dashboard):
  -- moving it here would leave Stripe charging for the old plan, and Stripe's next event would
  -- move it back. Teams without a live Stripe subscription move freely.
  if exists (
    select 1 from public.subscriptions s
    where s.team_id = admin_set_team_plan.team_id and s.stripe_subscription_id is not null
      and s.status in ('active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'paused')
  ) then
    raise exception 'This team pays through Stripe: change or cancel its subscription in Stripe first'
      using errcode = 'PT409', hint = 'stripe_subscription';
  end if;
  update public.teams t set plan_id = admin_set_team_plan.plan_id where t.id = admin_set_team_plan.team_id;
  perform private.log_admin_action('team.plan_change', 'team', admin_set_team_plan.team_id::text,
    jsonb_build_object('plan_id', old_plan), jsonb_build_object('plan_id', admin_set_team_plan.plan_id));
end;
$$;
comment on function public.admin_set_team_plan(uuid, text) is
  'Platform administrators: move a team to another plan (recorded in the audit log with the plan before and after).';

create function public.admin_unlist_bot(bot_id uuid) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  was_listed boolean;
begin
  perform private.require_platform_admin();
  select b.gallery_listed into was_listed from public.bots b where b.id = admin_unlist_bot.bot_id for update;
  if not found then
    raise exception 'No bot with this id' using errcode = 'PT404';
  end if;
  if not was_listed then
    return;
  end if;
  update public.bots b set gallery_listed = false where b.id = admin_unlist_bot.bot_id;
  perform private.log_admin_action('bot.unlist', 'bot', admin_unlist_bot.bot_id::text,
    jsonb_build_object('gallery_listed', true), jsonb_build_object('gallery_listed', false));
end;
$$;
comment on function public.admin_unlist_bot(uuid) is 'Platform administrators: take a bot out of the public gallery (audit-logged).';

create function public.admin_delete_bot(bot_id uuid) returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  gone jsonb;
begin
  perform private.require_platform_admin();
  delete from public.bots b where b.id = admin_delete_bot.bot_id
  returning jsonb_build_object('name', b.name, 'team_id', b.team_id, 'visibility', b.visibility,
    'gallery_listed', b.gallery_listed, 'created_by', b.created_by, 'created_at', b.created_at) into gone;
  if gone is null then
    raise exception 'No bot with this id' using errcode = 'PT404';
  end if;
  perform private.log_admin_action('bot.delete', 'bot', admin_delete_bot.bot_id::text, gone, null);
end;
$$;
comment on function public.admin_delete_bot(uuid) is 'Platform administrators: delete a bot and everything under it (audit-logged with what it was).';

-- grants ----------------------------------------------------------------------------------------
do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.admin_list_users(text, text, boolean, text, uuid, integer)',
    'public.admin_list_teams(text, text, boolean, uuid, text, boolean, text, uuid, integer)',
    'public.admin_list_team_members(uuid, uuid, public.team_role, boolean, text, uuid, integer)',
    'public.admin_list_bots(text, uuid, public.bot_visibility, boolean, text, boolean, text, uuid, integer)',
    'public.admin_list_chats(text, uuid, uuid, text, text, boolean, text, uuid, integer)',
    'public.admin_list_audit_log(text, text, text, text, bigint, integer)',
    'public.admin_get_user(uuid)',
    'public.admin_get_bot(uuid)',
    'public.admin_set_team_plan(uuid, text)',
    'public.admin_unlist_bot(uuid)',
    'public.admin_delete_bot(uuid)'
  ] loop
    execute format('revoke execute on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated', fn);
  end loop;
end;
$$;
