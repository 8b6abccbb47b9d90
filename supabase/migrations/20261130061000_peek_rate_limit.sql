-- Reading a fixed-window counter without counting a hit: bot-login spends the bot's bucket
-- only on wrong passwords and, once it is empty, refuses only callers that failed on the bot
-- recently (marks are counters too); team-invite checks an address's e-mail budget before it
-- replaces that address's pending invitation.
create function private.peek_rate_limit(key text, max_hits integer, window_seconds integer) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => peek_rate_limit.window_seconds) - now())))::integer)
    from private.rate_limits r
    where r.key = peek_rate_limit.key
      and r.hits >= peek_rate_limit.max_hits
      and r.window_start + make_interval(secs => peek_rate_limit.window_seconds) > now()
  ), 0);
$$;
comment on function private.peek_rate_limit(text, integer, integer) is
  'Seconds until key has a hit left (at most max_hits in its window of window_seconds); 0 when it has one now. Counts nothing.';
revoke execute on function private.peek_rate_limit(text, integer, integer) from public;
grant execute on function private.peek_rate_limit(text, integer, integer) to service_role;

-- For edge functions through REST (service role only), shaped like public.consume_rate_limit.
create function public.peek_rate_limit(key text, max_hits integer, window_seconds integer)
returns table (allowed boolean, retry_after integer)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  wait integer;
begin
  if char_length(peek_rate_limit.key) not between 1 and 300
     or peek_rate_limit.max_hits < 1 or peek_rate_limit.window_seconds not between 1 and 86400 then
    raise exception 'Invalid rate limit' using errcode = '22023';
  end if;
  wait := private.peek_rate_limit(peek_rate_limit.key, peek_rate_limit.max_hits, peek_rate_limit.window_seconds);
  return query select wait = 0, wait;
end;
$$;
comment on function public.peek_rate_limit(text, integer, integer) is
  'Service role: would a hit on key be allowed now (fewer than max_hits in the window)? retry_after = seconds until it would, 0 when allowed. Counts nothing.';
revoke execute on function public.peek_rate_limit(text, integer, integer) from public, anon, authenticated;
grant execute on function public.peek_rate_limit(text, integer, integer) to service_role;
