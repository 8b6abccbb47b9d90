-- The members screen: lets PostgREST embed a member's profile
-- (`team_members?select=role,profiles(display_name,avatar_url)`) through a foreign
-- key to profiles, and adds get_team_members(), which also returns members'
-- emails (auth.users is not readable by clients) to the team's members.

-- tables ----------------------------------------------------------------------
-- Every auth user has a profile (on_auth_user_created), so this key always holds.
alter table public.team_members
  add constraint team_members_user_id_profiles_fkey foreign key (user_id) references public.profiles (id) on delete cascade;

-- RPCs ------------------------------------------------------------------------
create function public.get_team_members(team_id uuid)
returns table (
  user_id uuid, role public.team_role, display_name text, avatar_url text, email text,
  is_current_user boolean, joined_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select m.user_id, m.role, p.display_name, p.avatar_url, u.email::text,
         m.user_id = (select auth.uid()), m.created_at
  from public.team_members m
  join auth.users u on u.id = m.user_id
  left join public.profiles p on p.id = m.user_id
  where m.team_id = get_team_members.team_id
    and (private.has_team_role(get_team_members.team_id) or private.is_platform_admin())
  order by m.role, m.created_at;
$$;
comment on function public.get_team_members(uuid) is 'Members of a team with role, name, avatar and email; for the team''s members and platform admins.';

-- grants ----------------------------------------------------------------------
revoke execute on function public.get_team_members(uuid) from public, anon;
grant execute on function public.get_team_members(uuid) to authenticated;
