-- Who the host site says a widget visitor is (issue 15): `Parley.identify({ name, email, ... })`
-- on the embedding page reaches the chat's iframe, which stores it on the visitor's own chat.
-- The owner sees it in Conversations, marked as the site's word: it is the host page's claim,
-- not a verified identity, so nothing grants access or trust on it.
--
-- Written by the visitor through the existing policy "Visitors can rename and share their own
-- chats" (their own chats only; private.protect_chat_fields leaves this column to them). The
-- check keeps it a small flat object of scalars, whatever a client sends.

create function private.is_visitor_identity(value jsonb) returns boolean
language sql
immutable
set search_path = ''
as $$
  select value is null or (
    jsonb_typeof(value) = 'object'
    and octet_length(value::text) <= 4096
    and (select count(*) from jsonb_object_keys(value)) between 1 and 20
    and not exists (
      select 1 from jsonb_each(value) e
      where e.key !~ '^[A-Za-z][A-Za-z0-9_.-]{0,39}$'
         or jsonb_typeof(e.value) not in ('string', 'number', 'boolean')
         or (jsonb_typeof(e.value) = 'string' and char_length(e.value #>> '{}') > 200)
    )
  );
$$;
comment on function private.is_visitor_identity(jsonb) is
  'Check for chats.visitor: null, or an object of 1-20 plain keys with scalar values (strings up to 200 characters), at most 4 KB.';
revoke execute on function private.is_visitor_identity(jsonb) from public;
grant execute on function private.is_visitor_identity(jsonb) to authenticated, service_role;

alter table public.chats
  add column visitor jsonb constraint chats_visitor_shape check (private.is_visitor_identity(visitor));
comment on column public.chats.visitor is
  'What the host site said about the visitor (Parley.identify in the widget): a flat object such as {"name": ..., "email": ...}. Unverified; the visitor writes it on their own chat.';
