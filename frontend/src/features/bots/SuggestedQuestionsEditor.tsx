// A small list editor: add, edit, reorder-free remove; at most `max` entries.
import { FormattedMessage, useIntl } from "react-intl";
import { Button } from "../../components/ui";

export function SuggestedQuestionsEditor({ value, onChange, max = 6 }: { value: string[]; onChange: (v: string[]) => void; max?: number }) {
  const intl = useIntl();
  return (
    <fieldset className="list-editor" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field__label"><FormattedMessage id="bots.settings.suggested" /></legend>
      {value.map((q, i) => (
        <div className="list-editor__row" key={i}>
          <input
            className="control"
            value={q}
            maxLength={200}
            aria-label={intl.formatMessage({ id: "bots.settings.suggestedItem" }, { n: i + 1 })}
            onChange={(e) => onChange(value.map((v, j) => (j === i ? e.target.value : v)))}
          />
          <Button size="sm" theme="gray" aria-label={intl.formatMessage({ id: "bots.settings.suggestedRemove" }, { n: i + 1 })} onClick={() => onChange(value.filter((_, j) => j !== i))}>
            ×
          </Button>
        </div>
      ))}
      {value.length < max && (
        <div>
          <Button size="sm" theme="secondary" onClick={() => onChange([...value, ""])}>
            <FormattedMessage id="bots.settings.suggestedAdd" />
          </Button>
        </div>
      )}
    </fieldset>
  );
}
