-- The web channel comes with the bot, and counts its conversations.
--
-- Every bot answers on the web (its widget and hosted page) from the moment it exists, so its
-- channel list shows a "Web" channel with the embed code without a manual step:
--   * each bot has exactly one web channel (a unique index), created with the bot by a trigger
--     and backfilled here for the bots that have none (later web rows of a bot that has
--     several, which could be added by hand before, are removed: they hold no secrets and
--     nothing ever counted on them);
--   * clients can neither add a second one nor delete it (a trigger says so); it goes with its bot;
--   * the turns of web and widget chats count on it (message_count, last_event_at), as the
--     channel functions count theirs through record_channel_event(). Web chats are stored by
--     visitors themselves (RLS) and by the chat function, so a trigger on messages counts them.

-- backfill ----------------------------------------------------------------------
delete from public.channels c
where c.type = 'web'
  and exists (
    select 1 from public.channels o
    where o.bot_id = c.bot_id and o.type = 'web' and (o.created_at, o.id) < (c.created_at, c.id)
  );

create unique index channels_one_web_per_bot_idx on public.channels (bot_id) where type = 'web';

insert into public.channels (bot_id, type, name, status, created_by)
select b.id, 'web', 'Website', 'connected', b.created_by
from public.bots b
where not exists (select 1 from public.channels c where c.bot_id = b.id and c.type = 'web');

-- The web channel's count starts from the web turns already stored.
update public.channels c
set message_count = t.turns,
    last_event_at = t.last_at
from (
  select m.bot_id, count(*)::integer as turns, max(m.created_at) as last_at
  from public.messages m
  join public.chats ch on ch.id = m.chat_id
  where ch.channel in ('web', 'widget')
  group by m.bot_id
) t
where c.bot_id = t.bot_id and c.type = 'web' and c.message_count = 0;

-- functions ---------------------------------------------------------------------
-- Security definer: the bot's creator may be any member allowed to create bots, and the
-- channel's status is the system's (protect_channel_fields resets it for client roles).
create function private.create_web_channel() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.channels (bot_id, type, name, status, created_by)
  values (new.id, 'web', 'Website', 'connected', new.created_by)
  on conflict (bot_id) where type = 'web' do nothing;
  return null;
end;
$$;
comment on function private.create_web_channel() is 'Trigger: every new bot gets its web channel (widget and hosted page).';

create function private.protect_web_channel() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' and new.type = 'web' then
      raise exception 'A bot has one web channel, created with the bot' using errcode = '42501';
    elsif tg_op = 'DELETE' and old.type = 'web' then
      -- Deleting the bot deletes it (the cascade runs as the table's owner, not as the client).
      raise exception 'The web channel goes with its bot; disable it instead' using errcode = '42501';
    end if;
  end if;
  return case when tg_op = 'DELETE' then old else new end;
end;
$$;
comment on function private.protect_web_channel() is 'Trigger: clients neither add a second web channel nor delete one.';

-- Security definer: a visitor stores its own turns but may not touch the bot's channels.
create function private.count_web_turn() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.channels c
  set message_count = c.message_count + 1,
      last_event_at = greatest(c.last_event_at, new.created_at)
  where c.bot_id = new.bot_id and c.type = 'web'
    and exists (select 1 from public.chats ch where ch.id = new.chat_id and ch.channel in ('web', 'widget'));
  return null;
end;
$$;
comment on function private.count_web_turn() is 'Trigger: a turn of a web or widget chat counts on the bot''s web channel.';

revoke execute on function private.create_web_channel() from public, anon, authenticated;
revoke execute on function private.protect_web_channel() from public, anon, authenticated;
revoke execute on function private.count_web_turn() from public, anon, authenticated;

-- triggers ----------------------------------------------------------------------
create trigger bots_create_web_channel after insert on public.bots
  for each row execute function private.create_web_channel();

create trigger protect_web_channel before insert or delete on public.channels
  for each row execute function private.protect_web_channel();

create trigger messages_count_web_turn after insert on public.messages
  for each row execute function private.count_web_turn();
