-- Supabase Storage's schema as storage-api's migrations leave it: the tables, the
-- helper functions that Supabase-style policies call (storage.foldername,
-- storage.filename, storage.extension), storage.search (the list route), the
-- updated_at trigger, the triggers that refuse direct deletes, and grants.
-- Idempotent: runs at every start. RLS is on for both tables and no policy is
-- created here: with none, only the service role (which bypasses RLS) may create
-- buckets or touch objects; projects add policies in their migrations, as on Supabase.
--
-- Ownership as on hosted Supabase: supabase_storage_admin owns the tables. Hosted
-- lets postgres create policies on them (supautils' policy_grants); plain PostgreSQL
-- only lets an owner do that, so here postgres is a member of supabase_storage_admin.

do $$ begin
  create type storage.buckettype as enum ('STANDARD', 'ANALYTICS');
exception when duplicate_object then null; end $$;

-- tables ------------------------------------------------------------------------
create table if not exists storage.buckets (
  id text not null primary key,
  name text not null,
  owner uuid,
  owner_id text,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  type storage.buckettype not null default 'STANDARD',
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists bname on storage.buckets (name);
comment on table storage.buckets is 'Storage buckets (Supabase Storage schema).';
-- Databases made before buckets.type had the hosted enum type.
do $$ begin
  if exists (select 1 from information_schema.columns
              where table_schema = 'storage' and table_name = 'buckets' and column_name = 'type' and data_type = 'text') then
    alter table storage.buckets alter column type drop default;
    alter table storage.buckets alter column type type storage.buckettype using coalesce(type, 'STANDARD')::storage.buckettype;
    alter table storage.buckets alter column type set default 'STANDARD', alter column type set not null;
  end if;
end $$;

create table if not exists storage.objects (
  id uuid not null default gen_random_uuid() primary key,
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now()
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);
comment on table storage.objects is 'Storage objects (Supabase Storage schema); the bytes live in the stack''s data dir.';

alter table storage.objects enable row level security;
alter table storage.buckets enable row level security;

-- helper functions used by policies ------------------------------------------------
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

-- the request's operation (set by the Storage API per route, e.g. storage.object.upload),
-- and the helpers Supabase Storage offers for policies on it.
create or replace function storage.operation() returns text
language sql stable as $$
  select current_setting('storage.operation', true)
$$;

create or replace function storage.allow_any_operation(expected_operations text[]) returns boolean
language sql stable as $$
  -- "storage.object.upload" and "object.upload" name the same operation.
  select exists (
    select 1
      from unnest(expected_operations) as e(op)
     where coalesce(e.op, '') <> ''
       and regexp_replace(e.op, '^storage[.]', '') = regexp_replace(coalesce(storage.operation(), ''), '^storage[.]', '')
  )
$$;

create or replace function storage.allow_only_operation(expected_operation text) returns boolean
language sql stable as $$
  select storage.allow_any_operation(array[expected_operation])
$$;

create or replace function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language sql stable as $$
  select sum((metadata ->> 'size')::bigint)::bigint as size, bucket_id
    from storage.objects group by bucket_id
$$;

-- storage.search: one folder level of a bucket, folders first (id null), then files.
-- Security invoker, so the caller's RLS decides what is listed. Unlike Supabase's
-- it escapes LIKE wildcards, so "my_folder/" lists only that folder.
create or replace function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
) returns table (name text, id uuid, updated_at timestamptz, created_at timestamptz, last_accessed_at timestamptz, metadata jsonb)
language plpgsql stable security invoker set search_path = '' as $$
declare
  v_order_by text;
  v_sort_order text;
  v_pattern text;
begin
  v_order_by := case when sortcolumn in ('name', 'updated_at', 'created_at', 'last_accessed_at') then sortcolumn else 'name' end;
  v_sort_order := case when lower(sortorder) = 'desc' then 'desc' else 'asc' end;
  v_pattern := replace(replace(replace(coalesce(prefix, '') || coalesce(search, ''), '\', '\\'), '%', '\%'), '_', '\_') || '%';
  return query execute
    'with folders as (
       select o.path_tokens[$1] as folder
         from storage.objects o
        where o.name ilike $2 and o.bucket_id = $3 and array_length(o.path_tokens, 1) <> $1
        group by folder
        order by folder ' || v_sort_order || '
     )
     (select folder as "name", null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata
        from folders)
     union all
     (select o.path_tokens[$1] as "name", o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
        from storage.objects o
       where o.name ilike $2 and o.bucket_id = $3 and array_length(o.path_tokens, 1) = $1
       order by ' || quote_ident(v_order_by) || ' ' || v_sort_order || ')
     limit $4 offset $5'
  using levels, v_pattern, bucketname, limits, offsets;
end
$$;

-- updated_at, as Supabase's update_objects_updated_at trigger keeps it ------------------
create or replace function storage.update_updated_at_column() returns trigger
language plpgsql as $$
begin
  new.updated_at = now();
  return new;
end
$$;

drop trigger if exists update_objects_updated_at on storage.objects;
create trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();

-- direct deletes are refused, as on hosted Supabase -------------------------------------
-- Rows go with their bytes: the Storage API deletes both, setting storage.allow_delete_query
-- for its transaction. A DELETE in SQL (a migration, a function, the seed) is refused.
create or replace function storage.protect_delete() returns trigger
language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), '') is distinct from 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using errcode = '42501', hint = 'Deleting rows here would leave their files behind; delete files through the Storage API.';
  end if;
  return null;
end
$$;

drop trigger if exists protect_buckets_delete on storage.buckets;
create trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();
drop trigger if exists protect_objects_delete on storage.objects;
create trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();

-- owner and grants -------------------------------------------------------------------------
do $$
declare
  f regprocedure;
begin
  alter table storage.buckets owner to supabase_storage_admin;
  alter table storage.objects owner to supabase_storage_admin;
  alter type storage.buckettype owner to supabase_storage_admin;
  for f in select p.oid::regprocedure from pg_proc p where p.pronamespace = 'storage'::regnamespace loop
    execute format('alter function %s owner to supabase_storage_admin', f);
  end loop;
  grant supabase_storage_admin to postgres;
exception when insufficient_privilege then null; -- DATABASE_URL as a non-superuser: Supabase's own storage schema
end $$;
grant usage on schema storage to supabase_storage_admin;

grant all on storage.buckets, storage.objects to postgres, service_role;
grant select, insert, update, delete on storage.buckets, storage.objects to anon, authenticated;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text),
  storage.search(text, text, int, int, int, text, text, text), storage.get_size_by_bucket(),
  storage.operation(), storage.allow_any_operation(text[]), storage.allow_only_operation(text)
  to postgres, anon, authenticated, service_role;
