import { callFunction } from "../../lib/functions";
import type { LocaleCode } from "../../i18n/locales";

/**
 * After a sign-up that auth answered with no identity (the address already has a confirmed
 * account): asks account-notice to e-mail the address's owner. The screen shows the usual
 * "check your inbox" either way, so nothing tells a stranger that the account exists.
 */
export async function sendAccountNotice(email: string, locale: LocaleCode): Promise<void> {
  await callFunction("account-notice", { email, locale }, { anonymous: true });
}

/** Auth's answer to signing up with an existing confirmed address: a user without identities. */
export function isExistingAccountAnswer(user: { identities?: unknown[] | null } | null | undefined): boolean {
  return !!user && Array.isArray(user.identities) && user.identities.length === 0;
}
