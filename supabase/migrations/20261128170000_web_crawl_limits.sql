-- Crawling (issue 17): the politeness settings of a web source are checked by the database too,
-- with the limits the ingest function's settings.ts and the app's form use:
--   delay_ms     0–10,000, a whole number (the least time between two requests to the site)
--   concurrency  1–8, a whole number (pages fetched at once)
-- Either may be left out (the defaults: 200 ms, 2). CASE keeps the casts behind the type checks.
-- NOT VALID: rows written before this migration are not re-checked (a hosted database may have
-- some the ingest function already refuses with invalid_settings); every new write is.
alter table public.data_sources
  add constraint data_sources_web_crawl_limits check (
    type <> 'web'
    or (
      case
        when settings -> 'delay_ms' is null then true
        when jsonb_typeof(settings -> 'delay_ms') <> 'number' then false
        else (settings ->> 'delay_ms')::numeric between 0 and 10000 and (settings ->> 'delay_ms')::numeric % 1 = 0
      end
      and case
        when settings -> 'concurrency' is null then true
        when jsonb_typeof(settings -> 'concurrency') <> 'number' then false
        else (settings ->> 'concurrency')::numeric between 1 and 8 and (settings ->> 'concurrency')::numeric % 1 = 0
      end
    )
  ) not valid;

comment on column public.data_sources.settings is
  'Type-specific: web {url, mode, max_depth, max_pages, include, exclude, keep_selectors, drop_selectors, use_sitemap, delay_ms 0–10000, concurrency 1–8}, file {files:[{path,name,mime}], text_columns, title_column}, notion {pages, databases, api_url}, youtube {url, languages, max_videos, base_url}, text {text, title}.';
