// /test/widget and /test/features: bare pages (layout none) that later issues use to try
// the embeddable widget and feature flags in isolation.
import { FormattedMessage, useIntl } from "react-intl";
import { useRouteDef } from "../../app/handle";

export default function TestPage() {
  const intl = useIntl();
  const def = useRouteDef();
  return (
    <main id="main" className="test-page" data-test-page={def?.meta?.test}>
      <h1>{intl.formatMessage({ id: def?.title ?? "page.test.widget.title" })}</h1>
      <p className="muted">
        <FormattedMessage id="test.placeholder" />
      </p>
    </main>
  );
}
