-- Hardening after a security review.
--
-- 1. A bot's chat password changes or goes away: every access grant to the bot is revoked,
--    so people who knew the old password must enter the new one. (Grants written by the
--    bot-login function also expire now, after 30 days.)
-- 2. Client roles may insert chats and user turns directly through REST (RLS decides where),
--    which bypassed the chat function's per-visitor limits: a visitor could flood a bot's
--    conversations. A database-side limit now bounds what one user can insert per minute,
--    above what the chat function itself allows (20 messages a minute): 60 turns and 30 new chats a
--    minute per user, so normal use never
--    meets it. Over it, PostgREST answers 429 (SQLSTATE PT429).

-- 1 ---------------------------------------------------------------------------------
create function private.revoke_bot_grants_on_password_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' or old.password_hash is distinct from new.password_hash then
    delete from public.bot_access_grants g where g.bot_id = old.bot_id;
  end if;
  return null;
end;
$$;
comment on function private.revoke_bot_grants_on_password_change() is
  'After a bot''s chat password changes or is removed: delete every access grant to the bot.';
revoke execute on function private.revoke_bot_grants_on_password_change() from public, anon, authenticated;

create trigger revoke_grants_on_password_change after update or delete on public.bot_secrets
  for each row execute function private.revoke_bot_grants_on_password_change();

-- 2 ---------------------------------------------------------------------------------
create function private.limit_client_inserts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  per_minute integer := tg_argv[0]::integer;
begin
  -- Only signed-in client roles are counted; the service role (edge functions), SQL run by
  -- the database owner (seeds, tests) and anon (which cannot insert here) are not.
  if (select auth.role()) = 'authenticated' and (select auth.uid()) is not null then
    if not private.consume_rate_limit('db:' || tg_table_name || ':' || (select auth.uid())::text, per_minute, 60) then
      raise exception 'Too many new % from this user; try again in a minute', tg_table_name
        using errcode = 'PT429', hint = 'rate_limited';
    end if;
  end if;
  return new;
end;
$$;
comment on function private.limit_client_inserts() is
  'Before a client inserts a chat or a message: at most TG_ARGV[0] a minute per user, else PT429 (HTTP 429).';
revoke execute on function private.limit_client_inserts() from public, anon, authenticated;

create trigger limit_client_inserts before insert on public.messages
  for each row execute function private.limit_client_inserts('60');
create trigger limit_client_inserts before insert on public.chats
  for each row execute function private.limit_client_inserts('30');
