-- No client role may TRUNCATE (which RLS does not govern), reference or manage triggers of
-- any public table, including tables created by later migrations (default privileges).
begin;
select plan(3);

select is(
  (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and (has_table_privilege('anon', c.oid, 'TRUNCATE') or has_table_privilege('authenticated', c.oid, 'TRUNCATE'))),
  0, 'no public table grants TRUNCATE to anon or authenticated');

select is(
  (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')
      and (has_table_privilege('anon', c.oid, 'REFERENCES,TRIGGER') or has_table_privilege('authenticated', c.oid, 'REFERENCES,TRIGGER'))),
  0, 'no public table grants REFERENCES or TRIGGER to anon or authenticated');

-- a table made now, as migrations make them
set local role postgres;
create table public.tests_privileges_probe (id int primary key);
reset role;
select ok(
  not has_table_privilege('anon', 'public.tests_privileges_probe', 'TRUNCATE')
  and not has_table_privilege('authenticated', 'public.tests_privileges_probe', 'TRUNCATE')
  and has_table_privilege('authenticated', 'public.tests_privileges_probe', 'SELECT'),
  'a new public table gets the usual grants without TRUNCATE');

select * from finish();
rollback;
