// auth.users and auth.identities in SQL (so triggers in migrations fire) and the
// user object GoTrue returns.
import crypto from "node:crypto";
import bcrypt from "bcryptjs";
import type pg from "pg";

export const INSTANCE_ID = "00000000-0000-0000-0000-000000000000";

/** A pool or a transaction's client: anything that runs a parameterised query. */
export interface Q {
  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** A row of auth.users as to_jsonb gives it (timestamps in ISO format). */
export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_token: string | null;
  confirmation_sent_at: string | null;
  recovery_token: string | null;
  recovery_sent_at: string | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: string | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: string | null;
  updated_at: string | null;
  phone: string | null;
  phone_confirmed_at: string | null;
  confirmed_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  is_sso_user: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: string | null;
  created_at: string | null;
  updated_at: string | null;
  email: string | null;
}

/** Go's RFC 3339 output: Postgres' "+00:00" becomes "Z". */
function ts(v: string | null | undefined): string | undefined {
  if (!v) return undefined;
  return v.replace(/\+00:00$/, "Z");
}

export async function hashPassword(pw: string): Promise<string> {
  return bcrypt.hash(pw, 10);
}

export async function checkPassword(pw: string, hash: string | null): Promise<boolean> {
  if (!hash || !/^\$2[abxy]\$/.test(hash)) return false;
  try {
    return await bcrypt.compare(pw, hash);
  } catch {
    return false;
  }
}

export async function findUserById(q: Q, id: string): Promise<UserRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const r = await q.query<{ u: UserRow }>("select to_jsonb(u) as u from auth.users u where id = $1", [id]);
  return r.rows[0]?.u ?? null;
}

export async function findUserByEmail(q: Q, email: string): Promise<UserRow | null> {
  const r = await q.query<{ u: UserRow }>(
    "select to_jsonb(u) as u from auth.users u where lower(email) = lower($1) and is_sso_user = false order by created_at limit 1",
    [email],
  );
  return r.rows[0]?.u ?? null;
}

export async function identitiesOf(q: Q, userId: string): Promise<IdentityRow[]> {
  const r = await q.query<{ i: IdentityRow }>("select to_jsonb(i) as i from auth.identities i where user_id = $1 order by created_at", [userId]);
  return r.rows.map((x) => x.i);
}

export function identityJson(i: IdentityRow) {
  return {
    identity_id: i.id,
    id: i.provider_id,
    user_id: i.user_id,
    identity_data: i.identity_data,
    provider: i.provider,
    last_sign_in_at: ts(i.last_sign_in_at),
    created_at: ts(i.created_at),
    updated_at: ts(i.updated_at),
    email: i.email ?? undefined,
  };
}

/** The user object GoTrue sends (models.User's JSON). */
export interface FactorJson {
  id: string;
  friendly_name: string;
  factor_type: string;
  status: string;
  created_at: string;
  updated_at: string;
}

/** The user's MFA factors as GoTrue lists them in the user object. */
export async function factorsOf(q: Q, userId: string): Promise<FactorJson[]> {
  const r = await q.query<FactorJson>(
    `select id, coalesce(friendly_name, '') as friendly_name, factor_type::text as factor_type, status::text as status,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at,
            to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at
       from auth.mfa_factors where user_id = $1 order by created_at`,
    [userId],
  );
  return r.rows;
}

export function userJson(u: UserRow, identities: IdentityRow[], factors: FactorJson[] = []) {
  const out: Record<string, unknown> = {
    id: u.id,
    aud: u.aud ?? "",
    role: u.role ?? "",
    email: u.email ?? "",
    email_confirmed_at: ts(u.email_confirmed_at),
    phone: u.phone ?? "",
    confirmation_sent_at: ts(u.confirmation_sent_at),
    confirmed_at: ts(u.confirmed_at),
    recovery_sent_at: ts(u.recovery_sent_at),
    new_email: u.email_change || undefined,
    email_change_sent_at: ts(u.email_change_sent_at),
    invited_at: ts(u.invited_at),
    last_sign_in_at: ts(u.last_sign_in_at),
    app_metadata: u.raw_app_meta_data ?? {},
    user_metadata: u.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: ts(u.created_at),
    updated_at: ts(u.updated_at),
    is_anonymous: u.is_anonymous,
    factors: factors.length ? factors : undefined,
  };
  if (u.banned_until) out.banned_until = ts(u.banned_until);
  if (u.deleted_at) out.deleted_at = ts(u.deleted_at);
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

export async function loadUserJson(q: Q, id: string) {
  const u = await findUserById(q, id);
  if (!u) return null;
  return userJson(u, await identitiesOf(q, id));
}

export interface NewUser {
  email?: string | null;
  passwordHash?: string | null;
  emailConfirmed?: boolean;
  invited?: boolean;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  isAnonymous?: boolean;
  role?: string;
  bannedUntil?: string | null;
  id?: string;
}

export async function insertUser(q: Q, n: NewUser): Promise<UserRow> {
  const r = await q.query<{ u: UserRow }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, is_anonymous, banned_until, created_at, updated_at,
       confirmation_token, recovery_token, email_change_token_new, email_change)
     values ($1, $2, 'authenticated', $3, $4, $5, case when $6 then now() end, case when $7 then now() end,
       $8, $9, $10, $11, now(), now(), '', '', '', '')
     returning to_jsonb(users.*) as u`,
    [
      INSTANCE_ID, n.id ?? crypto.randomUUID(), n.role ?? "authenticated", n.email ?? null, n.passwordHash ?? "",
      !!n.emailConfirmed, !!n.invited, JSON.stringify(n.appMetadata), JSON.stringify(n.userMetadata), !!n.isAnonymous, n.bannedUntil ?? null,
    ],
  );
  return r.rows[0]!.u;
}

export async function insertIdentity(q: Q, userId: string, provider: string, providerId: string, data: Record<string, unknown>) {
  await q.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
     values ($1, $2, $3, $4, now(), now(), now())
     on conflict (provider_id, provider) do update set identity_data = excluded.identity_data, last_sign_in_at = now(), updated_at = now()`,
    [providerId, userId, JSON.stringify(data), provider],
  );
}

/** The email identity GoTrue creates for an email user. */
export async function insertEmailIdentity(q: Q, u: UserRow) {
  if (!u.email) return;
  await insertIdentity(q, u.id, "email", u.id, { sub: u.id, email: u.email, email_verified: !!u.email_confirmed_at, phone_verified: false });
}

export function isBanned(u: UserRow): boolean {
  return !!u.banned_until && new Date(u.banned_until).getTime() > Date.now();
}

export function isConfirmed(u: UserRow): boolean {
  return !!u.email_confirmed_at || !!u.phone_confirmed_at;
}
