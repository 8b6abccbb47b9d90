-- A power-up's secret header values are write-only: nobody reads them back, the server puts them
-- into the action's requests. An admin who changed the action's URL to another host could have
-- had them sent there. Secrets belong to the host they were set for: when an http power-up's
-- address (scheme, host, port) changes, its secrets are deleted and must be set again for the
-- new host. A change of path or query keeps them.

create function private.url_origin(url text) returns text
language sql immutable set search_path = ''
as $$
  select lower(substring(coalesce(url_origin.url, '') from '^[^/?#]*(?://[^/?#]*)?'));
$$;
comment on function private.url_origin(text) is 'The scheme and authority of a URL (template), lower case: what a secret header is bound to.';

create function private.forget_power_up_secrets_on_new_host() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if private.url_origin(old.settings ->> 'url') is distinct from private.url_origin(new.settings ->> 'url')
     or old.type is distinct from new.type then
    delete from public.power_up_secrets s where s.power_up_id = new.id;
  end if;
  return null;
end;
$$;
comment on function private.forget_power_up_secrets_on_new_host() is
  'After an update of a power-up: deletes its secrets when its URL''s scheme, host or port (or its type) changed.';
revoke all on function private.forget_power_up_secrets_on_new_host() from public, anon, authenticated;

create trigger forget_secrets_on_new_host after update of settings, type on public.power_ups
  for each row execute function private.forget_power_up_secrets_on_new_host();
