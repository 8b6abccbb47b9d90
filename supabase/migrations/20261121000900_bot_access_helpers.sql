-- Role helper for tables that hang under a bot (data sources, chats, channels,
-- power-ups...): "admins manage the bot and everything under it" becomes
-- `(select private.has_bot_role(bot_id, 'admin'))` in their policies, with the
-- same role rules as private.has_team_role.

-- functions -------------------------------------------------------------------
create function private.has_bot_role(bot_id uuid, role public.team_role default null) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.bots b
    join public.team_members tm on tm.team_id = b.team_id
    where b.id = has_bot_role.bot_id
      and tm.user_id = (select auth.uid())
      and (
        has_bot_role.role is null
        or tm.role = has_bot_role.role
        or (has_bot_role.role = 'admin' and tm.role = 'owner')
      )
  );
$$;
comment on function private.has_bot_role(uuid, public.team_role) is
  'Does the caller have this role in the bot''s team? null = any member, admin = admin or owner, owner = owner.';

-- grants ----------------------------------------------------------------------
revoke execute on function private.has_bot_role(uuid, public.team_role) from public;
grant execute on function private.has_bot_role(uuid, public.team_role) to authenticated, service_role;
