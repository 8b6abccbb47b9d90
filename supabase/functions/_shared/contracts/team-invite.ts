// POST /functions/v1/team-invite: a team owner invites someone by e-mail.
import type { Database } from "../database.types.ts";

export type TeamRole = Database["public"]["Enums"]["team_role"];

/** The app's languages: the invitation e-mail's link lands on the invite page in this one. */
export const LOCALES = ["en", "de", "es", "fr", "it", "jp", "cn", "el", "pl", "nl"] as const;
export type Locale = (typeof LOCALES)[number];

export interface TeamInviteRequest {
  team_id: string;
  email: string;
  /** Default "admin". */
  role?: TeamRole;
  /** Default "en". */
  locale?: Locale;
}

export interface TeamInviteAnswer {
  ok: true;
  email: string;
  role: TeamRole;
  /** "invite" for a new account, "sign_in_link" for an existing one. */
  delivery: "invite" | "sign_in_link";
}
