// Shows what the database (or a function) refused, in the user's language: the one mapping
// from codes to messages (errorMessage in lib/errors.ts); the server's English text never shows.
import { FormattedMessage } from "react-intl";
import { errorMessage } from "../lib/errors";

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const { id, values } = errorMessage(error);
  return (
    <div className="error-note" role="alert">
      <strong><FormattedMessage id={id} values={values} /></strong>
    </div>
  );
}
