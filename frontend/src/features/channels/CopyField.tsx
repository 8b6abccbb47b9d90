import { FormattedMessage, useIntl } from "react-intl";
import { Button, TOAST_MESSAGES, useToast } from "../../components/ui";

/** A value to paste elsewhere (a URL, a snippet) with a copy button. */
export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const toast = useToast();
  const intl = useIntl();
  return (
    <div className="ch-copy">
      <p className="ch-muted">{label}</p>
      <code className="ch-code" data-testid={testId}>{value}</code>
      <div className="ch-actions">
        <Button
          size="xs"
          theme="secondary"
          aria-label={intl.formatMessage({ id: "channels.copy.label" }, { what: label })}
          onClick={() => void navigator.clipboard?.writeText(value).then(() => toast.show(TOAST_MESSAGES.copied), () => undefined)}
        >
          <FormattedMessage id="channels.copy" />
        </Button>
      </div>
    </div>
  );
}
