// Shows what the database (or a function) refused, in the user's language: the one mapping
// from codes to messages (errorMessage in lib/errors.ts); the server's English text never shows.
import { FormattedMessage } from "react-intl";
import { errorMessage, toAppError } from "../lib/errors";
import { LocalizedLink } from "./LocalizedLink";

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const { id, values } = errorMessage(error);
  return (
    <div className="error-note" role="alert">
      <strong><FormattedMessage id={id} values={values} /></strong>
      {toAppError(error).hint === "plan_limit" && (
        // A plan's limit refused it (Postgres, PT402): the way out is a bigger plan.
        <> <LocalizedLink to="/app/billing"><FormattedMessage id="billing.error.upgradeLink" /></LocalizedLink></>
      )}
    </div>
  );
}
