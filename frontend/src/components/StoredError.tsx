// An error a background worker stored on a row (a task run, a webhook delivery), shown in the
// user's language; the stored code stays available as the title, the English detail never shows.
import { FormattedMessage } from "react-intl";
import { storedErrorCode, type ErrorMessage } from "../lib/errors";

export function StoredError({ text, message, className }: { text: string; message: (text: string) => ErrorMessage; className?: string }) {
  const { id, values } = message(text);
  const code = storedErrorCode(text);
  return (
    <div className={className} title={code || undefined} data-error-code={code || undefined}>
      <FormattedMessage id={id} values={values} />
    </div>
  );
}
