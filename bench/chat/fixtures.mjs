// What the chat benches set up directly in the database (the stack's env of
// scripts/with-stack.mjs): an owner with a team on the business plan (6,000 answers a minute per
// bot, no bot limit), anonymous visitors (as signInAnonymously makes them) and their tokens.
import crypto from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { corpusDocuments, insertKnowledge } from "./corpus.mjs";

// pg is the stack's dependency, not the root workspace's.
const pg = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../stack/package.json"))("pg");

/** A connected client of the stack's database (SUPABASE_DB_URL, as with-stack.mjs sets it). */
export async function connectDb() {
  const db = new pg.Client({ connectionString: process.env.SUPABASE_DB_URL });
  await db.connect();
  return db;
}

const { SUPABASE_JWT_SECRET: secret } = process.env;

/** An access token of an anonymous visitor, signed with the stack's JWT secret. */
export function mint(sub) {
  const b64url = (b) => Buffer.from(b).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(
    JSON.stringify({ sub, role: "authenticated", aud: "authenticated", iat: now, exp: now + 7200, is_anonymous: true }),
  );
  const sig = crypto.createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

/** An owner and their team on the business plan: { ownerId, teamId }. */
export async function ownerTeam(db, name) {
  const ownerId = crypto.randomUUID();
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, '', now(), '{"provider":"email"}', '{}', now(), now(), false)`,
    [ownerId, `bench-${ownerId}@parley.test`],
  );
  const {
    rows: [team],
  } = await db.query(
    `insert into public.teams (name, slug, created_by, plan_id) values ($1, $2, $3, 'business') returning id`,
    [name, `bench-${ownerId.slice(0, 8)}`, ownerId],
  );
  return { ownerId, teamId: team.id };
}

/** `count` anonymous visitors in auth.users: [{ id, token }]. */
export async function visitors(db, count) {
  const ids = Array.from({ length: count }, () => crypto.randomUUID());
  await db.query(
    `insert into auth.users (instance_id, id, aud, role, raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
     select '00000000-0000-0000-0000-000000000000', id, 'authenticated', 'authenticated', '{"provider":"anonymous"}', '{}', now(), now(), true
     from unnest($1::uuid[]) id`,
    [ids],
  );
  return ids.map((id) => ({ id, token: mint(id) }));
}

/** An owner's team (business plan) with one public extractive bot answering from CORPUS: { bot, chunkCount }. */
export async function extractiveBot(db, name, corpus, chunks) {
  const { ownerId, teamId } = await ownerTeam(db, name);
  const {
    rows: [bot],
  } = await db.query(
    `insert into public.bots (team_id, name, visibility, model_provider, created_by) values ($1, $2, 'public', 'extractive', $3) returning id`,
    [teamId, name, ownerId],
  );
  const documents = corpusDocuments(corpus, chunks);
  await insertKnowledge(db, bot.id, documents); // vacuums and analyzes
  return { bot, chunkCount: documents.reduce((n, d) => n + d.chunks.length, 0) };
}
