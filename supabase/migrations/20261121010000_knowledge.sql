-- The bot's knowledge: data sources (web, file, notion, youtube, text), the
-- documents each one yields, their chunks (full-text vector in the bot's
-- language, trigram index, and an embedding column where pgvector exists), the
-- ingestion jobs that fill them, the `data-sources` Storage bucket for uploads,
-- and public.match_chunks(), the retrieval RPC the chat engine calls as the
-- visitor. Team owners and admins manage data sources; documents, chunks and
-- jobs are written by the `ingest` edge function with the service role.

-- types -----------------------------------------------------------------------
create type public.data_source_type as enum ('web', 'file', 'notion', 'youtube', 'text');
comment on type public.data_source_type is 'Where a data source''s documents come from.';
create type public.sync_schedule as enum ('never', 'daily', 'weekly', 'monthly');
comment on type public.sync_schedule is 'How often a data source is re-synced automatically.';
create type public.data_source_status as enum ('idle', 'queued', 'running', 'ready', 'error', 'cancelled');
comment on type public.data_source_status is 'State of a data source''s last (or current) sync.';
create type public.document_status as enum ('ready', 'error', 'skipped');
comment on type public.document_status is 'ready: chunked; error: could not be read; skipped: nothing to index.';
create type public.ingestion_job_status as enum ('queued', 'running', 'succeeded', 'failed', 'cancelled');
comment on type public.ingestion_job_status is 'State of one ingestion run.';
create type public.ingestion_trigger as enum ('manual', 'schedule', 'create');
comment on type public.ingestion_trigger is 'What started an ingestion run.';

-- helper functions (used by columns and triggers below) -----------------------
create function private.language_regconfig(language text) returns regconfig
language sql
immutable
set search_path = ''
as $$
  select (case language
    when 'en' then 'pg_catalog.english'
    when 'de' then 'pg_catalog.german'
    when 'es' then 'pg_catalog.spanish'
    when 'fr' then 'pg_catalog.french'
    when 'it' then 'pg_catalog.italian'
    when 'nl' then 'pg_catalog.dutch'
    when 'el' then 'pg_catalog.greek'
    else 'pg_catalog.simple'
  end)::regconfig;
$$;
comment on function private.language_regconfig(text) is
  'Text-search configuration for a bot language code; simple for jp, cn, pl (no Postgres stemmer), which lean on trigrams.';
revoke execute on function private.language_regconfig(text) from public;
grant execute on function private.language_regconfig(text) to authenticated, service_role;

-- tables ----------------------------------------------------------------------
create table public.data_sources (
  id uuid primary key default gen_random_uuid(),
  bot_id uuid not null references public.bots (id) on delete cascade,
  type public.data_source_type not null,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  settings jsonb not null default '{}' check (jsonb_typeof(settings) = 'object' and pg_column_size(settings) <= 65536),
  sync_schedule public.sync_schedule not null default 'never',
  status public.data_source_status not null default 'idle',
  last_synced_at timestamptz,
  next_sync_at timestamptz,
  error text,
  document_count integer not null default 0,
  chunk_count integer not null default 0,
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.data_sources is
  'Where a bot''s knowledge comes from. settings depend on type (see the ingest function); status and counters are written by the ingest function.';
comment on column public.data_sources.settings is
  'Type-specific: web {url, mode, max_depth, max_pages, include, exclude, keep_selectors, drop_selectors}, file {files:[{path,name,mime}], text_columns, title_column}, notion {pages, databases}, youtube {url, languages}, text {text, title}.';
create index data_sources_bot_id_idx on public.data_sources (bot_id);
create index data_sources_next_sync_idx on public.data_sources (next_sync_at) where sync_schedule <> 'never';
create index data_sources_created_by_idx on public.data_sources (created_by);

create table public.data_source_secrets (
  data_source_id uuid primary key references public.data_sources (id) on delete cascade,
  notion_access_token text check (notion_access_token is null or char_length(notion_access_token) <= 2000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.data_source_secrets is
  'Secrets of a data source (the Notion access token). Service role only; written by the ingest function.';

create table public.documents (
  id uuid primary key default gen_random_uuid(),
  data_source_id uuid not null references public.data_sources (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  title text not null default '' check (char_length(title) <= 1000),
  url text not null check (char_length(url) between 1 and 4096),
  language text check (language is null or char_length(language) <= 20),
  content_hash text,
  size_bytes integer not null default 0,
  status public.document_status not null default 'ready',
  error text,
  content text,
  metadata jsonb not null default '{}' check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (data_source_id, url)
);
comment on table public.documents is
  'One page, file, CSV row, Notion page or video of a data source, with its extracted text (content) for previews. url is the web address or the Storage path.';
create index documents_bot_id_idx on public.documents (bot_id);

create table public.chunks (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.documents (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  position integer not null default 0,
  heading_path text not null default '',
  content text not null check (char_length(content) between 1 and 20000),
  fts_config regconfig not null default 'pg_catalog.simple',
  fts tsvector generated always as (
    setweight(to_tsvector(fts_config, heading_path), 'A') || setweight(to_tsvector(fts_config, content), 'B')
  ) stored,
  token_count integer not null default 0,
  created_at timestamptz not null default now()
);
comment on table public.chunks is
  'A passage of a document sized for model context. fts uses fts_config, the bot''s language configuration at ingestion time.';
create index chunks_document_id_idx on public.chunks (document_id, position);
create index chunks_bot_id_idx on public.chunks (bot_id);
create index chunks_fts_idx on public.chunks using gin (fts);
create index chunks_content_trgm_idx on public.chunks using gin (content extensions.gin_trgm_ops);

create table public.ingestion_jobs (
  id uuid primary key default gen_random_uuid(),
  data_source_id uuid not null references public.data_sources (id) on delete cascade,
  bot_id uuid not null references public.bots (id) on delete cascade,
  status public.ingestion_job_status not null default 'queued',
  trigger public.ingestion_trigger not null default 'manual',
  progress_done integer not null default 0,
  progress_total integer not null default 0,
  errors jsonb not null default '[]' check (jsonb_typeof(errors) = 'array'),
  cancel_requested boolean not null default false,
  started_at timestamptz,
  finished_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.ingestion_jobs is
  'One sync run of a data source: progress, per-document errors [{url, code, message}], cancel flag. Written by the ingest function.';
create index ingestion_jobs_data_source_id_idx on public.ingestion_jobs (data_source_id, created_at desc);
create index ingestion_jobs_bot_id_idx on public.ingestion_jobs (bot_id);
create index ingestion_jobs_created_by_idx on public.ingestion_jobs (created_by);

-- Embeddings only where pgvector exists (hosted Supabase); retrieval works without.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'vector') then
    create extension if not exists vector with schema extensions;
    alter table public.chunks add column embedding extensions.vector(1536);
    comment on column public.chunks.embedding is 'OpenAI-compatible embedding (1536 dimensions) when the team has an embeddings key.';
    create index chunks_embedding_idx on public.chunks using hnsw (embedding extensions.vector_cosine_ops);
  end if;
end $$;

alter table public.data_sources enable row level security;
alter table public.data_source_secrets enable row level security;
alter table public.documents enable row level security;
alter table public.chunks enable row level security;
alter table public.ingestion_jobs enable row level security;

-- triggers --------------------------------------------------------------------
create trigger data_sources_set_timestamps before insert or update on public.data_sources
  for each row execute function private.set_timestamps();
create trigger documents_set_timestamps before insert or update on public.documents
  for each row execute function private.set_timestamps();
create trigger ingestion_jobs_set_timestamps before insert or update on public.ingestion_jobs
  for each row execute function private.set_timestamps();
create trigger data_source_secrets_set_timestamps before insert or update on public.data_source_secrets
  for each row execute function private.set_timestamps();

create function private.next_sync_time(schedule public.sync_schedule, from_time timestamptz) returns timestamptz
language sql
immutable
set search_path = ''
as $$
  select case schedule
    when 'daily' then from_time + interval '1 day'
    when 'weekly' then from_time + interval '7 days'
    when 'monthly' then from_time + interval '1 month'
    else null
  end;
$$;
comment on function private.next_sync_time(public.sync_schedule, timestamptz) is 'When a source on this schedule is next due.';
revoke execute on function private.next_sync_time(public.sync_schedule, timestamptz) from public;
grant execute on function private.next_sync_time(public.sync_schedule, timestamptz) to authenticated, service_role;

-- Clients set what a source is; the ingest function sets how it is doing.
create function private.protect_data_source_fields() returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    if tg_op = 'INSERT' then
      new.status := 'idle';
      new.last_synced_at := null;
      new.error := null;
      new.document_count := 0;
      new.chunk_count := 0;
      if new.created_by is distinct from (select auth.uid()) then
        raise exception 'A data source is created by the signed-in user' using errcode = '42501';
      end if;
    else
      if new.bot_id is distinct from old.bot_id then
        raise exception 'A data source cannot be moved to another bot' using errcode = '42501';
      end if;
      if new.type is distinct from old.type then
        raise exception 'The type of a data source cannot be changed' using errcode = '42501';
      end if;
      if new.created_by is distinct from old.created_by then
        raise exception 'The creator of a data source cannot be changed' using errcode = '42501';
      end if;
      if new.status is distinct from old.status or new.last_synced_at is distinct from old.last_synced_at
         or new.error is distinct from old.error or new.document_count is distinct from old.document_count
         or new.chunk_count is distinct from old.chunk_count then
        raise exception 'Sync status and counters are written by the ingest function' using errcode = '42501';
      end if;
    end if;
  end if;
  if tg_op = 'INSERT' or new.sync_schedule is distinct from old.sync_schedule then
    new.next_sync_at := private.next_sync_time(new.sync_schedule, coalesce(new.last_synced_at, now()));
  end if;
  return new;
end;
$$;
comment on function private.protect_data_source_fields() is
  'Trigger: clients cannot move a source, change its type or write its sync status/counters; keeps next_sync_at in step with the schedule.';
create trigger data_sources_protect_fields before insert or update on public.data_sources
  for each row execute function private.protect_data_source_fields();

-- chunks take the bot's text-search configuration, whoever inserts them
create function private.set_chunk_fts_config() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select private.language_regconfig(b.language) into new.fts_config from public.bots b where b.id = new.bot_id;
  new.fts_config := coalesce(new.fts_config, 'pg_catalog.simple'::regconfig);
  return new;
end;
$$;
comment on function private.set_chunk_fts_config() is 'Trigger: a chunk''s fts_config is its bot''s language configuration.';
create trigger chunks_set_fts_config before insert on public.chunks
  for each row execute function private.set_chunk_fts_config();

-- policies --------------------------------------------------------------------
create policy "Team admins can read data sources" on public.data_sources
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read data sources" on public.data_sources
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can create data sources" on public.data_sources
  for insert to authenticated with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can update data sources" on public.data_sources
  for update to authenticated
  using ((select private.has_bot_role(bot_id, 'admin')))
  with check ((select private.has_bot_role(bot_id, 'admin')));
create policy "Team admins can delete data sources" on public.data_sources
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read documents" on public.documents
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read documents" on public.documents
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can delete documents" on public.documents
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read chunks" on public.chunks
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read chunks" on public.chunks
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can delete chunks" on public.chunks
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

create policy "Team admins can read ingestion jobs" on public.ingestion_jobs
  for select to authenticated using ((select private.has_bot_role(bot_id, 'admin')));
create policy "Platform admins can read ingestion jobs" on public.ingestion_jobs
  for select to authenticated using ((select private.is_platform_admin()));
create policy "Team admins can delete ingestion jobs" on public.ingestion_jobs
  for delete to authenticated using ((select private.has_bot_role(bot_id, 'admin')));

-- grants ----------------------------------------------------------------------
revoke all on public.data_source_secrets from anon, authenticated;
revoke all on public.data_sources, public.documents, public.chunks, public.ingestion_jobs from anon;
revoke insert, update, truncate, references, trigger on public.documents, public.chunks, public.ingestion_jobs from authenticated;
revoke truncate, references, trigger on public.data_sources from authenticated;

-- realtime: the sources list and the progress bar update live
alter publication supabase_realtime add table public.data_sources, public.ingestion_jobs;

-- storage: uploads under <bot_id>/... in a private bucket ---------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('data-sources', 'data-sources', false, 20971520, array[
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'text/csv', 'application/csv', 'text/markdown', 'text/x-markdown', 'text/plain', 'application/octet-stream'
])
on conflict (id) do nothing;

create function private.storage_bot_id(name text) returns uuid
language plpgsql
immutable
set search_path = ''
as $$
begin
  return ((storage.foldername(name))[1])::uuid;
exception when invalid_text_representation then
  return null;
end;
$$;
comment on function private.storage_bot_id(text) is 'The bot id a data-sources object lives under (<bot_id>/...), or null.';
revoke execute on function private.storage_bot_id(text) from public;
grant execute on function private.storage_bot_id(text) to authenticated, service_role;

create policy "Team admins can upload data source files" on storage.objects
  for insert to authenticated
  with check (bucket_id = 'data-sources' and (select private.has_bot_role(private.storage_bot_id(name), 'admin')));
create policy "Team admins can read data source files" on storage.objects
  for select to authenticated
  using (bucket_id = 'data-sources' and (select private.has_bot_role(private.storage_bot_id(name), 'admin')));
create policy "Team admins can replace data source files" on storage.objects
  for update to authenticated
  using (bucket_id = 'data-sources' and (select private.has_bot_role(private.storage_bot_id(name), 'admin')));
create policy "Team admins can delete data source files" on storage.objects
  for delete to authenticated
  using (bucket_id = 'data-sources' and (select private.has_bot_role(private.storage_bot_id(name), 'admin')));

-- retrieval -------------------------------------------------------------------
-- Full text (the bot's configuration; any query word may match, websearch
-- syntax boosts exact phrases) and trigram word similarity, each ranked, then
-- fused by reciprocal rank (k = 60). Runs as definer so visitors never need
-- read access to chunks; the one access rule is private.can_chat_with_bot.
create function public.match_chunks(p_bot_id uuid, p_query text, p_match_count integer default 8)
returns table (
  chunk_id uuid,
  document_id uuid,
  data_source_id uuid,
  content text,
  heading_path text,
  document_title text,
  document_url text,
  score double precision
)
language plpgsql
stable
security definer
set search_path = ''
set pg_trgm.word_similarity_threshold = 0.3
as $$
declare
  v_config regconfig;
  v_any tsquery;
  v_web tsquery;
  v_count integer := least(greatest(coalesce(p_match_count, 8), 1), 50);
  v_query text := left(btrim(coalesce(p_query, '')), 2000);
begin
  if v_query = '' or p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
    return;
  end if;
  select private.language_regconfig(b.language) into v_config from public.bots b where b.id = p_bot_id;
  v_web := websearch_to_tsquery(v_config, v_query);
  select string_agg('''' || replace(replace(l, '\', '\\'), '''', '''''') || '''', ' | ')::tsquery into v_any
  from unnest(tsvector_to_array(to_tsvector(v_config, v_query))) as l;

  return query
  with fts as (
    select c.id, row_number() over (order by r.rank desc, c.id) as r
    from public.chunks c
    cross join lateral (
      select ts_rank_cd(c.fts, v_any, 32) + case when c.fts @@ v_web then 1 else 0 end as rank
    ) r
    where v_any is not null and c.bot_id = p_bot_id and c.fts @@ v_any
    order by r.rank desc, c.id
    limit 50
  ),
  trgm as (
    select c.id, row_number() over (order by extensions.word_similarity(v_query, c.content) desc, c.id) as r
    from public.chunks c
    where c.bot_id = p_bot_id and v_query operator(extensions.<%) c.content
    order by extensions.word_similarity(v_query, c.content) desc, c.id
    limit 50
  ),
  fused as (
    select ranked.id, sum(1.0 / (60 + ranked.r))::double precision as score
    from (select * from fts union all select * from trgm) ranked
    group by ranked.id
  )
  select c.id, c.document_id, d.data_source_id, c.content, c.heading_path, d.title, d.url, f.score
  from fused f
  join public.chunks c on c.id = f.id
  join public.documents d on d.id = c.document_id
  order by f.score desc, c.id
  limit v_count;
end;
$$;
comment on function public.match_chunks(uuid, text, integer) is
  'The best passages of a bot''s data for a query (full text in the bot''s language + trigram, fused by reciprocal rank). Empty when the caller may not chat with the bot.';
revoke execute on function public.match_chunks(uuid, text, integer) from public, anon;
grant execute on function public.match_chunks(uuid, text, integer) to authenticated, service_role;

-- With pgvector: the same plus a third ranked list by cosine distance to the
-- query embedding (computed by the caller with the team's embeddings provider).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'vector') then
    execute $fn$
      create function public.match_chunks(p_bot_id uuid, p_query text, p_match_count integer, p_query_embedding extensions.vector)
      returns table (chunk_id uuid, document_id uuid, data_source_id uuid, content text, heading_path text,
                     document_title text, document_url text, score double precision)
      language plpgsql
      stable
      security definer
      set search_path = ''
      as $body$
      declare
        v_count integer := least(greatest(coalesce(p_match_count, 8), 1), 50);
      begin
        if p_bot_id is null or not private.can_chat_with_bot(p_bot_id) then
          return;
        end if;
        return query
        with lexical as (
          select m.chunk_id as id, row_number() over (order by m.score desc) as r
          from public.match_chunks(p_bot_id, p_query, 50) m
        ),
        semantic as (
          select c.id, row_number() over (order by c.embedding operator(extensions.<=>) p_query_embedding) as r
          from public.chunks c
          where p_query_embedding is not null and c.bot_id = p_bot_id and c.embedding is not null
          order by c.embedding operator(extensions.<=>) p_query_embedding
          limit 50
        ),
        fused as (
          select ranked.id, sum(1.0 / (60 + ranked.r))::double precision as score
          from (select * from lexical union all select * from semantic) ranked
          group by ranked.id
        )
        select c.id, c.document_id, d.data_source_id, c.content, c.heading_path, d.title, d.url, f.score
        from fused f
        join public.chunks c on c.id = f.id
        join public.documents d on d.id = c.document_id
        order by f.score desc, c.id
        limit v_count;
      end;
      $body$
    $fn$;
    execute 'revoke execute on function public.match_chunks(uuid, text, integer, extensions.vector) from public, anon';
    execute 'grant execute on function public.match_chunks(uuid, text, integer, extensions.vector) to authenticated, service_role';
  end if;
end $$;
