#!/usr/bin/env node
// The admin lists at a million rows: a throwaway Postgres with every migration, ~1M users
// (auth.users, identities, profiles, personal teams and memberships), 250k bots and 1M chats,
// then EXPLAIN (ANALYZE, BUFFERS) of each admin_list_* query as a platform administrator: first
// page, a deep page through the keyset cursor, search and a filter. Writes REPORT.md and
// results.json next to this file. See README.md for the method.
//   node bench/admin/run.mjs [--users 1000000] [--bots 250000] [--chats 1000000]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";
register();

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const arg = (name, d) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const USERS = arg("users", 1_000_000);
const BOTS = arg("bots", 250_000);
const CHATS = arg("chats", 1_000_000);

const { withThrowawayServer } = await import(path.join(root, "stack/src/db-tools.ts"));
const { applyMigrations, applyPlatform } = await import(path.join(root, "stack/src/migrations.ts"));
const { DB_PASSWORD } = await import(path.join(root, "stack/src/stack.ts"));
const { createLogger } = await import(path.join(root, "stack/src/log.ts"));
const pg = (await import("pg")).default;

const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);

// Rows are written in one pass per table with triggers off (session_replication_role =
// replica): the triggers' work (profile, personal team, owner membership) is written explicitly
// with the same shape, which is what they would produce, only much faster.
const GENERATE = [
  ["auth.users", `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
      last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous, banned_until)
    select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
      case when g % 10 = 0 then null else 'user' || g || '@bench.test' end, '', now(),
      now() - (g % 1000) * interval '1 hour', '{"provider":"email"}', '{}',
      timestamptz '2024-01-01' + g * interval '1 minute', now(), g % 10 = 0,
      case when g % 997 = 0 then now() + interval '10 years' end
    from generate_series(1, $USERS) g`],
  ["auth.identities", `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at)
    select u.id::text, u.id, jsonb_build_object('sub', u.id, 'email', u.email), case when random() < 0.2 then 'github' else 'email' end, u.created_at
    from auth.users u where not u.is_anonymous`],
  ["public.profiles", `insert into public.profiles (id, display_name, created_at, updated_at)
    select u.id, case when u.is_anonymous then null else 'Bench Person ' || substr(u.email, 5, length(u.email) - 15) end, u.created_at, u.created_at
    from auth.users u`],
  ["public.teams", `insert into public.teams (id, name, slug, personal, created_by, created_at, updated_at, plan_id)
    select gen_random_uuid(), 'Team of ' || p.display_name, 'bench-' || replace(p.id::text, '-', ''), true, p.id, p.created_at, p.created_at,
      case when random() < 0.05 then 'pro' else 'free' end
    from public.profiles p where p.display_name is not null`],
  ["public.team_members", `insert into public.team_members (team_id, user_id, role, created_at, updated_at)
    select t.id, t.created_by, 'owner', t.created_at, t.created_at from public.teams t where t.slug like 'bench-%'`],
  ["public.bots", `insert into public.bots (team_id, name, visibility, gallery_listed, created_by, created_at, updated_at)
    select t.id, 'Bench bot ' || n, case when n % 3 = 0 then 'public'::public.bot_visibility else 'private' end, n % 30 = 0, t.created_by,
      t.created_at + interval '1 day', t.created_at + interval '1 day'
    from (select t.*, row_number() over () as n from public.teams t where t.slug like 'bench-%' limit $BOTS) t`],
  ["public.chats", `insert into public.chats (bot_id, user_id, channel, title, message_count, last_message_at, created_at, updated_at)
    select b.a[1 + (g::bigint * 7919) % cardinality(b.a)], u.a[1 + (g::bigint * 104729) % cardinality(u.a)], (array['web','widget','api','slack'])[1 + g % 4],
      'Question ' || g, g % 40, timestamptz '2025-01-01' + g * interval '30 seconds', timestamptz '2025-01-01' + g * interval '30 seconds', now()
    from generate_series(1, $CHATS) g,
      (select array_agg(id) a from public.bots) b,
      (select array_agg(id) a from auth.users) u`],
];

// Each case: an admin_list_* call, as the platform administrator. "deep" pages start after the
// row at the given offset of the same ordering (the cursor a client would hold there).
const CASES = [
  ["users: first page", "select * from public.admin_list_users(page_size => 26)"],
  ["users: deep page (90% in)", "select * from public.admin_list_users(page_size => 26, after_value => $V, after_id => $I)", "select created_at::text v, id i from public.profiles order by created_at desc, id desc offset (select count(*) * 9 / 10 from public.profiles) limit 1"],
  ["users: search exact e-mail", "select * from public.admin_list_users(search => 'user123457@bench.test', page_size => 26)"],
  ["users: search e-mail prefix", "select * from public.admin_list_users(search => 'user77777', page_size => 26)"],
  ["users: search display name part", "select * from public.admin_list_users(search => 'Person 424242', page_size => 26)"],
  ["users: filter banned", "select * from public.admin_list_users(kind_filter => 'banned', page_size => 26)"],
  ["teams: first page by name", "select * from public.admin_list_teams(sort => 'name', descending => false, page_size => 26)"],
  ["teams: deep page by created_at (90% in)", "select * from public.admin_list_teams(page_size => 26, after_value => $V, after_id => $I)", "select created_at::text v, id i from public.teams order by created_at desc, id desc offset (select count(*) * 9 / 10 from public.teams) limit 1"],
  ["teams: search name", "select * from public.admin_list_teams(search => 'Person 31337', page_size => 26)"],
  ["teams: filter plan pro", "select * from public.admin_list_teams(plan_filter => 'pro', page_size => 26)"],
  ["team members: first page", "select * from public.admin_list_team_members(page_size => 26)"],
  ["team members: deep page (90% in)", "select * from public.admin_list_team_members(page_size => 26, after_value => $V, after_id => $I)", "select created_at::text v, id i from public.team_members order by created_at desc, id desc offset (select count(*) * 9 / 10 from public.team_members) limit 1"],
  ["bots: first page", "select * from public.admin_list_bots(page_size => 26)"],
  ["bots: deep page by name (90% in)", "select * from public.admin_list_bots(sort => 'name', descending => false, page_size => 26, after_value => $V, after_id => $I)", "select name v, id i from public.bots order by name, id offset (select count(*) * 9 / 10 from public.bots) limit 1"],
  ["bots: search name", "select * from public.admin_list_bots(search => 'bot 12345', page_size => 26)"],
  ["bots: listed in the gallery", "select * from public.admin_list_bots(listed_filter => true, page_size => 26)"],
  ["chats: first page", "select * from public.admin_list_chats(page_size => 26)"],
  ["chats: deep page (90% in)", "select * from public.admin_list_chats(page_size => 26, after_value => $V, after_id => $I)", "select created_at::text v, id i from public.chats order by created_at desc, id desc offset (select count(*) * 9 / 10 from public.chats) limit 1"],
  ["chats: by message count", "select * from public.admin_list_chats(sort => 'message_count', page_size => 26)"],
  ["chats: search title", "select * from public.admin_list_chats(search => 'Question 77777', page_size => 26)"],
  ["chats: one bot's chats", "select * from public.admin_list_chats(bot_filter => $B, page_size => 26)"],
];

const results = await withThrowawayServer(async (server) => {
  await applyPlatform(server.url, { authenticatorPassword: DB_PASSWORD });
  await applyMigrations(server.url, root, createLogger("migrations", true));
  const db = new pg.Client({ connectionString: server.url });
  await db.connect();
  db.on("error", () => {});
  // GIN (trigram) indexes are built once after the load instead of row by row.
  const gin = (await db.query(`select schemaname, indexname, indexdef from pg_indexes
    where indexdef like '%USING gin%' and schemaname in ('public', 'auth') and tablename in ('profiles', 'teams', 'bots', 'chats')`)).rows;
  for (const i of gin) await db.query(`drop index ${i.schemaname}.${i.indexname}`);
  await db.query("set session_replication_role = replica");
  const counts = {};
  for (const [table, sql] of GENERATE) {
    const started = Date.now();
    const r = await db.query(sql.replaceAll("$USERS", String(USERS)).replaceAll("$BOTS", String(BOTS)).replaceAll("$CHATS", String(CHATS)));
    counts[table] = r.rowCount;
    log(`${table}: ${r.rowCount} rows in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
  await db.query("set session_replication_role = origin");
  await db.query("set maintenance_work_mem = '256MB'");
  for (const i of gin) {
    const started = Date.now();
    await db.query(i.indexdef);
    log(`${i.indexname} built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  }
  const admin = (await db.query(`select id from auth.users where email = 'user2@bench.test'`)).rows[0].id;
  await db.query("insert into public.platform_admins (user_id) values ($1)", [admin]);
  await db.query("vacuum analyze");
  log("analyzed");
  const bot = (await db.query("select bot_id from public.chats group by bot_id order by count(*) desc limit 1")).rows[0].bot_id;

  const out = [];
  for (const [name, call, cursorSql] of CASES) {
    try {
      out.push(await measure(name, call, cursorSql));
    } catch (e) {
      console.error(`${name}: ${e.message}`);
      await db.query("rollback").catch(() => {});
      out.push({ name, error: e.message });
    }
  }
  await db.end();
  return { counts, cases: out };

  async function measure(name, call, cursorSql) {
    let sql = call.replace("$B", `'${bot}'`);
    if (cursorSql) {
      const c = (await db.query(cursorSql)).rows[0];
      sql = sql.replace("$V", `'${c.v}'`).replace("$I", `'${c.i}'`);
    }
    // As the platform administrator, through PostgREST's role and claims.
    await db.query("begin");
    await db.query("set local role authenticated");
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: admin, role: "authenticated" })]);
    const rows = (await db.query(sql)).rowCount; // warm
    const timings = [];
    for (let i = 0; i < 5; i++) {
      const started = process.hrtime.bigint();
      await db.query(sql);
      timings.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    await db.query("rollback");
    // The plan of the query the function runs (its dynamic SQL), read with auto_explain-free
    // EXPLAIN of the same statement the function builds: see explainInner below.
    const plan = await explainInner(db, admin, sql);
    timings.sort((a, b) => a - b);
    const median = timings[2];
    log(`${name}: ${rows} rows, median ${median.toFixed(2)} ms`);
    return { name, rows, median_ms: Number(median.toFixed(2)), max_ms: Number(timings[4].toFixed(2)), plan };
  }
});

/**
 * EXPLAIN ANALYZE of the statements a function runs inside: auto_explain with
 * log_nested_statements, its output captured from the server's notices (client_min_messages).
 */
async function explainInner(db, admin, sql) {
  await db.query("begin");
  try {
    await db.query("load 'auto_explain'");
    await db.query("set local auto_explain.log_min_duration = 0");
    await db.query("set local auto_explain.log_analyze = on");
    await db.query("set local auto_explain.log_buffers = on");
    await db.query("set local auto_explain.log_nested_statements = on");
    await db.query("set local auto_explain.log_level = notice");
    await db.query("set local client_min_messages = notice");
    await db.query("set local role authenticated");
    await db.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: admin, role: "authenticated" })]);
    const notices = [];
    const onNotice = (n) => notices.push(n.message ?? "");
    db.on("notice", onNotice);
    await db.query(sql);
    db.off("notice", onNotice);
    // The function's dynamic query is the longest nested plan (the outer one is a Function Scan).
    const plans = notices.filter((n) => /^duration:/.test(n));
    return plans.sort((a, b) => b.length - a.length)[0] ?? "(no plan captured)";
  } catch (e) {
    return `(auto_explain unavailable: ${e.message})`;
  } finally {
    await db.query("rollback");
  }
}

fs.writeFileSync(path.join(here, "results.json"), JSON.stringify({ generated_at: new Date().toISOString(), users: USERS, bots: BOTS, chats: CHATS, ...results }, null, 2) + "\n");
const lines = [
  "# Admin lists at a million rows: results",
  "",
  `Generated by \`node bench/admin/run.mjs\` on ${new Date().toISOString().slice(0, 10)} (method: README.md). Rows: ` +
    Object.entries(results.counts).map(([t, n]) => `${t} ${n.toLocaleString("en")}`).join(", ") + ".",
  "",
  "Each call asks for 26 rows (a page of 25 and one to know a next page exists), as a platform administrator; median and worst of 5 warm runs.",
  "",
  "| case | rows | median ms | max ms |",
  "| --- | ---: | ---: | ---: |",
  ...results.cases.map((c) => (c.error ? `| ${c.name} | error: ${c.error} | | |` : `| ${c.name} | ${c.rows} | ${c.median_ms} | ${c.max_ms} |`)),
  "",
  "## Plans (EXPLAIN ANALYZE of the query each function runs)",
  "",
  ...results.cases.filter((c) => c.plan).flatMap((c) => [`### ${c.name}`, "", "```", c.plan.trim(), "```", ""]),
];
fs.writeFileSync(path.join(here, "REPORT.md"), lines.join("\n"));
log("wrote bench/admin/REPORT.md and results.json");
