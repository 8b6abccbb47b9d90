// Shows what the database (or a function) refused, in the user's language where we know the
// code, with the server's sentence underneath (it names the rule that applied).
import { FormattedMessage } from "react-intl";
import { toAppError } from "../lib/errors";

const KNOWN: Record<string, string> = {
  "42501": "teams.error.forbidden",
  forbidden: "teams.error.forbidden",
  last_owner: "teams.error.lastOwner",
  mail_rate_limited: "teams.error.mailRateLimited",
  no_team: "teams.error.noTeam",
  avatar_too_large: "account.avatar.tooLarge",
  avatar_wrong_type: "account.avatar.wrongType",
};

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const e = toAppError(error);
  const id = (e.hint && KNOWN[e.hint]) || (e.code && KNOWN[e.code]) || "teams.error.generic";
  return (
    <div className="error-note" role="alert">
      <strong><FormattedMessage id={id} /></strong>
      {e.message && <span className="error-note__detail">{e.message}</span>}
    </div>
  );
}
