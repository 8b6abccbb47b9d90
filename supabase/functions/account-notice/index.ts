// `account-notice`: "you already have an account", by e-mail, never on screen.
//   POST /functions/v1/account-notice  {email, locale?}  anyone (anon key)
// Signing up with an address that has a confirmed account answers like a new sign-up (auth
// shows no difference, so nobody learns which addresses have accounts) and auth sends nothing.
// The sign-up screen then calls this function, which e-mails the address's owner, in their
// interface language, links to log in or set a new password. The answer is the same 202
// whether or not the address has an account. Limits: 5 an hour per caller address (an IPv6
// one by its /64), 3 a day per e-mail address, so it cannot be used to flood someone's inbox.
import { z } from "npm:zod@3.25.76";
import { createServiceClient } from "../_shared/clients.ts";
import { requireVerifiedCaller } from "../_shared/caller.ts";
import { LOCALES } from "../_shared/contracts/team-invite.ts";
import { must } from "../_shared/db.ts";
import { clientIp, handler, HttpError, json, readJson } from "../_shared/http.ts";
import { sendMail } from "../_shared/mail.ts";
import { enforceRateLimits, ipKey } from "../_shared/rate-limit.ts";
import { noticeMail } from "./messages.ts";

const bodySchema = z
  .object({
    email: z.string().trim().toLowerCase().min(3).max(320).email("This is not a valid email address"),
    locale: z.enum(LOCALES).optional(),
  })
  .strict();

Deno.serve(
  handler("account-notice", async (req) => {
    if (req.method !== "POST") throw new HttpError(405, "method_not_allowed", "Use POST");
    const parsed = bodySchema.safeParse(await readJson(req, 2 * 1024));
    if (!parsed.success) {
      throw new HttpError(400, "invalid_request", parsed.error.issues[0]?.message ?? "Invalid request", parsed.error.issues);
    }
    const { email } = parsed.data;
    await enforceRateLimits([
      { key: `account-notice:ip:${ipKey(clientIp(req))}`, max: 5, windowSeconds: 3600 },
      { key: `account-notice:email:${email}`, max: 3, windowSeconds: 86_400 },
    ]);
    const rows = must(await createServiceClient().rpc("account_notice_recipient", { email }), "account_notice_recipient");
    const recipient = rows?.[0];
    if (recipient) {
      // The account's own language; the screen's only when the account has none we know.
      const stored = LOCALES.find((l) => l === recipient.locale);
      await sendMail({ to: [email], ...noticeMail(stored ?? parsed.data.locale ?? "en") });
    }
    return json(202, { ok: true });
  }, { verifyCaller: requireVerifiedCaller }),
);
