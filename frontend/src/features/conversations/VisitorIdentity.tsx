// Who the website said the visitor is (Parley.identify in the widget), shown to the team as the
// site's word: a short list of the fields it gave, as plain text (never HTML).
import { FormattedMessage, useIntl } from "react-intl";
import type { Json } from "../../lib/database";

export function VisitorIdentity({ visitor }: { visitor: Json | null | undefined }) {
  const intl = useIntl();
  if (!visitor || typeof visitor !== "object" || Array.isArray(visitor)) return null;
  const entries = Object.entries(visitor).filter((e): e is [string, string | number | boolean] => ["string", "number", "boolean"].includes(typeof e[1]));
  if (!entries.length) return null;
  return (
    <section className="conv-visitor" aria-label={intl.formatMessage({ id: "conversations.visitor.label" })}>
      <h3 className="conv-visitor__title">
        <FormattedMessage id="conversations.visitor.label" />
      </h3>
      <dl className="conv-visitor__list">
        {entries.map(([key, value]) => (
          <div key={key} className="conv-visitor__row">
            <dt>{key}</dt>
            <dd>{typeof value === "boolean" ? (value ? "✓" : "✗") : String(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="form-note">
        <FormattedMessage id="conversations.visitor.hint" />
      </p>
    </section>
  );
}
