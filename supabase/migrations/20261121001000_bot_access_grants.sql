-- Who may chat with a bot: public bots for anyone with a session, password bots
-- only after the password was accepted (a grant row written by the
-- `bot-login` edge function with the service role), private bots only for
-- their team (and platform administrators). The chat engine, retrieval and the
-- visitor pages all ask private.can_chat_with_bot, so the rule lives in one place.

-- tables ----------------------------------------------------------------------
create table public.bot_access_grants (
  bot_id uuid not null references public.bots (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  granted_at timestamptz not null default now(),
  expires_at timestamptz,
  primary key (bot_id, user_id)
);
comment on table public.bot_access_grants is
  'A visitor (auth user, often anonymous) who passed a password-protected bot''s check. Written by the service role only.';
create index bot_access_grants_user_id_idx on public.bot_access_grants (user_id);

alter table public.bot_access_grants enable row level security;

-- functions -------------------------------------------------------------------
create function private.can_chat_with_bot(bot_id uuid) returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.bots b
    where b.id = can_chat_with_bot.bot_id
      and (
        b.visibility = 'public'
        or (
          b.visibility = 'password'
          and exists (
            select 1 from public.bot_access_grants g
            where g.bot_id = b.id
              and g.user_id = (select auth.uid())
              and (g.expires_at is null or g.expires_at > now())
          )
        )
        or private.has_bot_role(b.id, null)
        or private.is_platform_admin()
      )
  );
$$;
comment on function private.can_chat_with_bot(uuid) is
  'May the caller chat with this bot? public: anyone; password: after a grant; private: its team and platform admins.';

revoke execute on function private.can_chat_with_bot(uuid) from public;
grant execute on function private.can_chat_with_bot(uuid) to authenticated, service_role;

-- policies --------------------------------------------------------------------
create policy "Visitors can read their own access grants" on public.bot_access_grants
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy "Team admins can read their bots' access grants" on public.bot_access_grants
  for select to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can revoke their bots' access grants" on public.bot_access_grants
  for delete to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')));

-- grants ----------------------------------------------------------------------
revoke insert, update on public.bot_access_grants from anon, authenticated;
