-- Fix: private.prepare_message is security definer, so current_user inside it
-- is the owner and the branch that resets system fields of client-written
-- messages never ran. The role the request runs as is current_setting('role').
create or replace function private.prepare_message() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select c.bot_id into new.bot_id from public.chats c where c.id = new.chat_id;
  if current_setting('role', true) in ('anon', 'authenticated') then
    new.sources := '[]';
    new.prompt_tokens := null;
    new.completion_tokens := null;
    new.latency_ms := null;
    new.first_token_ms := null;
    new.model := null;
    new.provider := null;
    new.error := null;
    new.created_at := now();
  end if;
  return new;
end;
$$;
