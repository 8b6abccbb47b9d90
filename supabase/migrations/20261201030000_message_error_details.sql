-- Why an answer failed, in two parts. `messages.error` keeps the code (provider_auth,
-- provider_timeout, ...): the visitor's chat shows a sentence for it, and visitors may read their
-- own chats' messages. The provider's own words (a vendor's error text, a team's base URL, what an
-- address answered) are the team's business only: they move to message_error_details, which the
-- bot's team and platform admins read, never the visitor who chatted.

create table public.message_error_details (
  message_id uuid primary key references public.messages (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  detail text not null check (char_length(detail) <= 2000),
  created_at timestamptz not null default now()
);
comment on table public.message_error_details is
  'The provider''s words for a failed answer (messages.error holds its code). Read by the bot''s team and platform admins; written by the service role.';
create index message_error_details_bot_id_idx on public.message_error_details (bot_id);

alter table public.message_error_details enable row level security;
create policy "Team members can read their bots' answer errors" on public.message_error_details
  for select to authenticated
  using ((select private.has_bot_role(message_error_details.bot_id, null)));
create policy "Platform admins can read all answer errors" on public.message_error_details
  for select to authenticated
  using ((select private.is_platform_admin()));
revoke all on public.message_error_details from anon;
revoke insert, update, delete, truncate, references, trigger on public.message_error_details from authenticated;

-- What is stored already: the code stays, the words move.
insert into public.message_error_details (message_id, bot_id, detail)
select m.id, m.bot_id, left(substring(m.error from '^[a-z_]+: (.*)$'), 2000)
from public.messages m
where m.error ~ '^[a-z_]+: ';
update public.messages m set error = substring(m.error from '^([a-z_]+): ')
where m.error ~ '^[a-z_]+: ';
