-- Issue 17 (200 visitors at once): one round trip fewer per message.
--
-- A visitor's message made four PostgREST requests: start_chat_turn (service role), then, side by
-- side, open_chat_turn and match_chunks (both as the visitor) and, at the end, the answer. Every
-- request costs CPU in the gateway, PostgREST, Postgres (a transaction with the role and claims)
-- and Deno, on the same two cores as the rest (bench/chat/REPORT.md, fifth pass: ~2-3 ms of CPU a
-- request). open_chat_turn and match_chunks run as the same caller with the same bot and text, so
-- they can be one call: open_chat_turn_and_match stores the turn exactly as open_chat_turn does
-- (it calls it: same checks, errors, budget, columns) and then, unless a person has taken the chat
-- over (the bot stays quiet: nothing to retrieve for), returns match_chunks' rows for the stored
-- text as `passages` (a JSON array, in match_chunks' order, each row an object of its columns, as
-- PostgREST would give them). Both functions are called unchanged, as the caller (security
-- invoker): RLS and match_chunks' own access check decide as before.
--
-- A retrieval that fails (e.g. the statement timeout) does not undo the stored turn, as when the
-- two ran apart: its error comes back as `retrieval_error` (the engine answers retrieval_failed)
-- and `passages` is null.
--
-- Text retrieval only: a team with an embeddings provider (pgvector) has its question embedded
-- first, and the engine keeps retrieval apart there (the turn is not held up by the embedding).

create function public.open_chat_turn_and_match(
  bot_id uuid,
  content text,
  chat_id uuid default null,
  images jsonb default '[]',
  channel text default 'web',
  external_thread_id text default null,
  external_user_id text default null,
  turn_pass uuid default null,
  history_limit integer default 0,
  match_count integer default 8
) returns table (
  opened_chat_id uuid,
  user_message_id uuid,
  created boolean,
  needs_human boolean,
  history jsonb,
  passages jsonb,
  retrieval_error text
)
language plpgsql
volatile
set search_path = ''
as $$
#variable_conflict use_column
declare
  opened record;
  found_passages jsonb;
  failure text;
begin
  select o.opened_chat_id, o.user_message_id, o.created, o.needs_human, o.history into opened
  from public.open_chat_turn(
    open_chat_turn_and_match.bot_id,
    open_chat_turn_and_match.content,
    open_chat_turn_and_match.chat_id,
    open_chat_turn_and_match.images,
    open_chat_turn_and_match.channel,
    open_chat_turn_and_match.external_thread_id,
    open_chat_turn_and_match.external_user_id,
    open_chat_turn_and_match.turn_pass,
    open_chat_turn_and_match.history_limit
  ) o;

  if not coalesce(opened.needs_human, false) then
    begin
      -- Whatever columns match_chunks returns, each row as an object of them.
      select coalesce(jsonb_agg(to_jsonb(m) - 'ordinality' order by m.ordinality), '[]'::jsonb) into found_passages
      from public.match_chunks(
        open_chat_turn_and_match.bot_id,
        open_chat_turn_and_match.content,
        open_chat_turn_and_match.match_count
      ) with ordinality as m;
    exception when others or query_canceled then
      -- As a separate request would have failed: the turn stays stored.
      found_passages := null;
      failure := sqlstate || ': ' || sqlerrm;
    end;
  end if;

  return query select opened.opened_chat_id, opened.user_message_id, opened.created, opened.needs_human, opened.history,
    found_passages, failure;
end;
$$;
comment on function public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer) is
  'open_chat_turn (same arguments, checks, errors and columns) and, unless a person has taken the chat over, match_chunks(bot_id, content, match_count) as the caller in the same call: passages = its rows as a JSON array in its order (null when it failed, with retrieval_error = sqlstate: message; the turn stays stored). One round trip for the answering engine''s two (issue 17).';
revoke execute on function public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer) from public, anon;
grant execute on function public.open_chat_turn_and_match(uuid, text, uuid, jsonb, text, text, text, uuid, integer, integer) to authenticated, service_role;
