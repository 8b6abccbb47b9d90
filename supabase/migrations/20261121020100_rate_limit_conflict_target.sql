-- Fix: private.consume_rate_limit named its conflict target `(key)`, which
-- plpgsql reads as ambiguous with the parameter of the same name. Name the
-- primary key constraint instead.
create or replace function private.consume_rate_limit(key text, max_hits integer, window_seconds integer) returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  used integer;
begin
  insert into private.rate_limits as r (key, window_start, hits)
  values (consume_rate_limit.key, now(), 1)
  on conflict on constraint rate_limits_pkey do update
    set hits = case when r.window_start + make_interval(secs => consume_rate_limit.window_seconds) > now()
                    then r.hits + 1 else 1 end,
        window_start = case when r.window_start + make_interval(secs => consume_rate_limit.window_seconds) > now()
                            then r.window_start else now() end
  returning r.hits into used;
  -- Forget stale windows now and then so the table stays small.
  if random() < 0.001 then
    delete from private.rate_limits r where r.window_start < now() - interval '1 day';
  end if;
  return used <= consume_rate_limit.max_hits;
end;
$$;

-- Fix: public.consume_rate_limit is security invoker and read private.rate_limits
-- directly, which the service role has no privilege on. The seconds left in
-- the window now come from a security definer helper.
create function private.rate_limit_retry_after(key text, window_seconds integer) returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => rate_limit_retry_after.window_seconds) - now())))::integer)
  from private.rate_limits r where r.key = rate_limit_retry_after.key;
$$;
comment on function private.rate_limit_retry_after(text, integer) is 'Seconds until the current window of a rate-limit key ends.';
revoke execute on function private.rate_limit_retry_after(text, integer) from public;
grant execute on function private.rate_limit_retry_after(text, integer) to service_role;

create or replace function public.consume_rate_limit(key text, max_hits integer, window_seconds integer)
returns table (allowed boolean, retry_after integer)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  ok boolean;
begin
  if char_length(consume_rate_limit.key) not between 1 and 300
     or consume_rate_limit.max_hits < 1 or consume_rate_limit.window_seconds not between 1 and 86400 then
    raise exception 'Invalid rate limit' using errcode = '22023';
  end if;
  ok := private.consume_rate_limit(consume_rate_limit.key, consume_rate_limit.max_hits, consume_rate_limit.window_seconds);
  return query select ok, private.rate_limit_retry_after(consume_rate_limit.key, consume_rate_limit.window_seconds);
end;
$$;
