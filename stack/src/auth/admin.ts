// Service-role endpoints: invite, admin/users and admin/generate_link.
import type { GatewayRequest } from "../service.ts";
import { sendJson } from "../http.ts";
import { requireAdmin, type AuthContext, type Q } from "./context.ts";
import { issueToken, sendToken, type EmailTokenKind } from "./emails.ts";
import { AuthError, badRequest, notFound, unprocessable } from "./errors.ts";
import { checkPasswordStrength, tx } from "./flows.ts";
import { optBool, optObject, optString, readBodyJson, validateEmail, type Body } from "./input.ts";
import { redirectTarget } from "./redirect.ts";
import { findUserByEmail, findUserById, hashPassword, identitiesOf, insertEmailIdentity, insertUser, isConfirmed, userJson } from "./users.ts";
import { parseDuration } from "./settings.ts";

const alreadyRegistered = () => unprocessable("email_exists", "A user with this email address has already been registered");

function banUntil(b: Body): string | null | undefined {
  const d = optString(b, "ban_duration", 64);
  if (d === undefined) return undefined;
  if (d === "none") return null;
  if (!/^(\d+(\.\d+)?(h|m|s|ms))+$/.test(d)) throw badRequest("validation_failed", "invalid format for ban duration: time: invalid duration");
  return new Date(Date.now() + parseDuration(d, 0) * 1000).toISOString();
}

function role(b: Body): string | undefined {
  const r = optString(b, "role", 63);
  if (r !== undefined && !/^[a-z_][a-z0-9_]*$/.test(r)) throw badRequest("validation_failed", "Invalid role");
  return r;
}

async function respondUser(q: Q, id: string) {
  const u = await findUserById(q, id);
  if (!u) throw notFound("user_not_found", "User not found");
  return userJson(u, await identitiesOf(q, id));
}

export async function invite(a: AuthContext, r: GatewayRequest) {
  requireAdmin(r);
  const b = await readBodyJson(r.req);
  const email = validateEmail(optString(b, "email", 1024) ?? "");
  const data = optObject(b, "data") ?? {};
  const redirectTo = redirectTarget(a.settings, r.query.get("redirect_to") ?? optString(b, "redirect_to", 2048));
  const out = await tx(a, async (q) => {
    let u = await findUserByEmail(q, email);
    if (u && isConfirmed(u)) throw alreadyRegistered();
    if (!u) {
      u = await insertUser(q, { email, passwordHash: "", invited: true, appMetadata: { provider: "email", providers: ["email"] }, userMetadata: data });
      await insertEmailIdentity(q, u);
    } else {
      await q.query("update auth.users set invited_at = now(), raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || $2::jsonb where id = $1", [u.id, JSON.stringify(data)]);
      u = (await findUserById(q, u.id))!;
    }
    await sendToken(a, q, u, "invite", redirectTo, undefined, { skipFrequency: true });
    return respondUser(q, u.id);
  });
  return sendJson(r.res, 200, out);
}

/** GoTrue's paginate: a page parameter that is not a positive integer is a 400, not a silent default. */
function pagingParam(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw === "") return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw badRequest("validation_failed", `Bad Pagination Parameters: ${name} must be a positive integer`);
  }
  return Number(raw);
}

/** POST /admin/signing-keys/rotate (this stack's own; hosted rotates in the dashboard): the standby key signs from now on. */
export async function rotateSigningKey(a: AuthContext, r: GatewayRequest) {
  requireAdmin(r);
  r.req.resume();
  const current = await a.ctx.keys.signing.rotate();
  if (!current) throw badRequest("validation_failed", "Access tokens are signed with the legacy HS256 secret (PARLEY_JWT_ALG=HS256): there is no key to rotate");
  return sendJson(r.res, 200, { in_use: current, keys: a.ctx.keys.signing.jwks().keys });
}

export async function listUsers(a: AuthContext, r: GatewayRequest) {
  requireAdmin(r);
  r.req.resume();
  const page = pagingParam(r.query.get("page"), "page", 1);
  const perPage = Math.min(1000, pagingParam(r.query.get("per_page"), "per_page", 50));
  const filter = (r.query.get("filter") ?? "").slice(0, 255);
  const like = `%${filter.replace(/[\\%_]/g, "\\$&")}%`;
  const where = filter ? "where (email ilike $1 or raw_user_meta_data->>'full_name' ilike $1)" : "";
  const args: unknown[] = filter ? [like] : [];
  const n = args.length;
  const rows = await a.ctx.db.query<{ u: unknown }>(
    `select to_jsonb(u) as u from auth.users u ${where} order by created_at desc, id limit $${n + 1} offset $${n + 2}`,
    [...args, perPage, (page - 1) * perPage],
  );
  const total = Number((await a.ctx.db.query<{ n: string }>(`select count(*) as n from auth.users u ${where}`, args)).rows[0]?.n ?? 0);
  const ids = rows.rows.map((x) => (x.u as { id: string }).id);
  const idents = await a.ctx.db.query<{ i: { user_id: string } }>("select to_jsonb(i) as i from auth.identities i where user_id = any($1::uuid[]) order by created_at", [ids]);
  const users = rows.rows.map((x) => {
    const u = x.u as Parameters<typeof userJson>[0];
    return userJson(u, idents.rows.map((y) => y.i as Parameters<typeof userJson>[1][number]).filter((i) => i.user_id === u.id));
  });
  const last = Math.max(1, Math.ceil(total / perPage));
  const links: string[] = [];
  const base = `${a.externalUrl}/admin/users`;
  if (page < last) links.push(`<${base}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`<${base}?page=${last}&per_page=${perPage}>; rel="last"`);
  return sendJson(r.res, 200, { users, aud: "authenticated" }, { "x-total-count": String(total), link: links.join(", ") });
}

export async function createUserAdmin(a: AuthContext, r: GatewayRequest) {
  requireAdmin(r);
  const b = await readBodyJson(r.req);
  const emailRaw = optString(b, "email", 1024);
  const password = optString(b, "password", 1024);
  if (optString(b, "phone", 64) && !emailRaw) throw badRequest("validation_failed", "Phone users are not supported on this server");
  const email = emailRaw !== undefined ? validateEmail(emailRaw) : undefined;
  const emailConfirm = optBool(b, "email_confirm") ?? false;
  const userMeta = optObject(b, "user_metadata") ?? optObject(b, "data") ?? {};
  const appMeta = optObject(b, "app_metadata") ?? {};
  const ban = banUntil(b);
  const rl = role(b);
  const id = optString(b, "id", 64);
  if (id !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw badRequest("validation_failed", "id must be a UUID");
  if (password !== undefined) checkPasswordStrength(a, password);
  const hash = password !== undefined ? await hashPassword(password) : "";
  const out = await tx(a, async (q) => {
    if (email && (await findUserByEmail(q, email))) throw alreadyRegistered();
    if (id && (await findUserById(q, id))) throw unprocessable("user_already_exists", "User already registered");
    const providers = email ? ["email"] : [];
    const u = await insertUser(q, {
      id, email: email ?? null, passwordHash: hash, emailConfirmed: emailConfirm, role: rl, bannedUntil: ban ?? null,
      appMetadata: { provider: email ? "email" : undefined, providers, ...appMeta }, userMetadata: userMeta,
    });
    await insertEmailIdentity(q, u);
    return respondUser(q, u.id);
  });
  return sendJson(r.res, 200, out);
}

export async function getUserAdmin(a: AuthContext, r: GatewayRequest, id: string) {
  requireAdmin(r);
  r.req.resume();
  return sendJson(r.res, 200, await respondUser(a.ctx.db, id));
}

export async function updateUserAdmin(a: AuthContext, r: GatewayRequest, id: string) {
  requireAdmin(r);
  const b = await readBodyJson(r.req);
  const emailRaw = optString(b, "email", 1024);
  const email = emailRaw !== undefined ? validateEmail(emailRaw) : undefined;
  const password = optString(b, "password", 1024);
  const emailConfirm = optBool(b, "email_confirm");
  const userMeta = optObject(b, "user_metadata");
  const appMeta = optObject(b, "app_metadata");
  const ban = banUntil(b);
  const rl = role(b);
  if (password !== undefined) checkPasswordStrength(a, password);
  const hash = password !== undefined ? await hashPassword(password) : undefined;
  const out = await tx(a, async (q) => {
    const u = await findUserById(q, id);
    if (!u) throw notFound("user_not_found", "User not found");
    if (email && email !== u.email) {
      const other = await findUserByEmail(q, email);
      if (other && other.id !== id) throw alreadyRegistered();
      await q.query("update auth.users set email = $2 where id = $1", [id, email]);
      await q.query(
        "update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text) where user_id = $1 and provider = 'email'",
        [id, email],
      );
    }
    if (hash) await q.query("update auth.users set encrypted_password = $2 where id = $1", [id, hash]);
    if (emailConfirm === true) await q.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = '' where id = $1", [id]);
    if (userMeta) await q.query("update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}') || $2::jsonb where id = $1", [id, JSON.stringify(userMeta)]);
    if (appMeta) await q.query("update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}') || $2::jsonb where id = $1", [id, JSON.stringify(appMeta)]);
    if (ban !== undefined) {
      await q.query("update auth.users set banned_until = $2 where id = $1", [id, ban]);
      if (ban) await q.query("delete from auth.sessions where user_id = $1", [id]);
    }
    if (rl) await q.query("update auth.users set role = $2 where id = $1", [id, rl]);
    await q.query("update auth.users set updated_at = now() where id = $1", [id]);
    return respondUser(q, id);
  });
  return sendJson(r.res, 200, out);
}

export async function deleteUserAdmin(a: AuthContext, r: GatewayRequest, id: string) {
  requireAdmin(r);
  const b = await readBodyJson(r.req);
  const soft = optBool(b, "should_soft_delete") ?? false;
  await tx(a, async (q) => {
    const u = await findUserById(q, id);
    if (!u) throw notFound("user_not_found", "User not found");
    if (soft) {
      // As GoTrue: keep the row, free the address, end every way to sign in.
      await q.query(
        `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '', confirmation_token = '', recovery_token = '',
           email_change_token_new = '', email_change_token_current = '', email_change = '', raw_app_meta_data = '{}', raw_user_meta_data = '{}', updated_at = now()
         where id = $1`,
        [id],
      );
      await q.query("delete from auth.identities where user_id = $1", [id]);
      await q.query("delete from auth.sessions where user_id = $1", [id]);
    } else {
      await q.query("delete from auth.users where id = $1", [id]);
    }
  });
  return sendJson(r.res, 200, {});
}

const LINK_TYPES = ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"] as const;

export async function generateLink(a: AuthContext, r: GatewayRequest) {
  requireAdmin(r);
  const b = await readBodyJson(r.req);
  const type = optString(b, "type", 32);
  if (!type || !(LINK_TYPES as readonly string[]).includes(type)) throw badRequest("validation_failed", "Invalid generate link type");
  const email = validateEmail(optString(b, "email", 1024) ?? "");
  const password = optString(b, "password", 1024);
  const data = optObject(b, "data") ?? {};
  const newEmailRaw = optString(b, "new_email", 1024);
  const redirectTo = redirectTarget(a.settings, r.query.get("redirect_to") ?? optString(b, "redirect_to", 2048));
  const out = await tx(a, async (q) => {
    let u = await findUserByEmail(q, email);
    let kind: EmailTokenKind;
    let recipient: string | undefined;
    switch (type) {
      case "signup": {
        if (u && isConfirmed(u)) throw alreadyRegistered();
        if (!password) throw badRequest("validation_failed", "Signup requires a valid password");
        checkPasswordStrength(a, password);
        if (!u) {
          u = await insertUser(q, { email, passwordHash: await hashPassword(password), appMetadata: { provider: "email", providers: ["email"] }, userMetadata: data });
          await insertEmailIdentity(q, u);
        }
        kind = "confirmation";
        break;
      }
      case "invite": {
        if (u && isConfirmed(u)) throw alreadyRegistered();
        if (!u) {
          u = await insertUser(q, { email, passwordHash: "", invited: true, appMetadata: { provider: "email", providers: ["email"] }, userMetadata: data });
          await insertEmailIdentity(q, u);
        }
        kind = "invite";
        break;
      }
      case "magiclink":
      case "recovery":
        if (!u) throw notFound("user_not_found", "User with this email not found");
        kind = type === "magiclink" ? "magiclink" : "recovery";
        break;
      default: {
        if (!u) throw notFound("user_not_found", "User with this email not found");
        if (!newEmailRaw) throw badRequest("validation_failed", "The new_email address is required");
        const newEmail = validateEmail(newEmailRaw);
        const other = await findUserByEmail(q, newEmail);
        if (other && other.id !== u.id) throw alreadyRegistered();
        await q.query("update auth.users set email_change = $2, email_change_confirm_status = 0 where id = $1", [u.id, newEmail]);
        u = (await findUserById(q, u.id))!;
        kind = type === "email_change_new" ? "email_change_new" : "email_change_current";
        recipient = kind === "email_change_new" ? newEmail : u.email ?? undefined;
        // With double confirmation both tokens exist, as when a user changes the address.
        if (a.settings.email.doubleConfirmChanges) {
          const otherKind = kind === "email_change_new" ? "email_change_current" : "email_change_new";
          await issueToken(a, q, u, otherKind, redirectTo, undefined, otherKind === "email_change_new" ? newEmail : u.email ?? undefined);
        }
      }
    }
    const t = await issueToken(a, q, u!, kind, redirectTo, undefined, recipient);
    const user = await respondUser(q, u!.id);
    return { ...user, action_link: t.link, email_otp: t.otp, hashed_token: t.hashed, redirect_to: redirectTo, verification_type: t.type };
  });
  return sendJson(r.res, 200, out);
}

export { AuthError };
