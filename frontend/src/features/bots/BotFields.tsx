// Form pieces the wizard and the settings page share: language, model, visibility.
import { providerLabelId } from "../../components/labels";
import { FormattedMessage, useIntl } from "react-intl";
import { Input, Select } from "../../components/ui";
import { BOT_LANGUAGES, MODEL_PROVIDERS, MODEL_SUGGESTIONS, type BotLanguage, type BotVisibility, type ModelProvider } from "../../data/bots/types";
import { languageName } from "../../i18n/locales";
import "../../components/panels.css";

/** Message ids use dashes: "openai_compatible" → bots.provider.openai-compatible. */
export { providerLabelId };

export function LanguageField({ value, onChange }: { value: BotLanguage; onChange: (v: BotLanguage) => void }) {
  const intl = useIntl();
  return (
    <Select
      label={intl.formatMessage({ id: "bots.field.language" })}
      hint={intl.formatMessage({ id: "bots.field.languageHint" })}
      value={value}
      onChange={(e) => onChange(e.target.value as BotLanguage)}
      options={BOT_LANGUAGES.map((c) => ({ value: c, label: languageName(c) }))}
    />
  );
}

export function ModelFields(props: {
  provider: ModelProvider;
  model: string;
  temperature?: number;
  onChange: (v: { provider?: ModelProvider; model?: string; temperature?: number }) => void;
  modelError?: string;
}) {
  const intl = useIntl();
  const suggestions = MODEL_SUGGESTIONS[props.provider];
  return (
    <div className="form-stack">
      <Select
        label={intl.formatMessage({ id: "bots.field.provider" })}
        value={props.provider}
        onChange={(e) => {
          const provider = e.target.value as ModelProvider;
          props.onChange({ provider, model: MODEL_SUGGESTIONS[provider][0] ?? "" });
        }}
        options={MODEL_PROVIDERS.map((p) => ({ value: p, label: intl.formatMessage({ id: providerLabelId(p) }) }))}
      />
      {props.provider === "extractive" ? (
        <p className="form-note"><FormattedMessage id="bots.field.extractiveHint" /></p>
      ) : (
        <>
          <Input
            label={intl.formatMessage({ id: "bots.field.model" })}
            value={props.model}
            list="model-suggestions"
            maxLength={200}
            onChange={(e) => props.onChange({ model: e.target.value })}
            hint={intl.formatMessage({ id: "bots.field.modelHint" })}
            error={props.modelError}
          />
          <datalist id="model-suggestions">
            {suggestions.map((m) => <option key={m} value={m} />)}
          </datalist>
        </>
      )}
      {props.temperature !== undefined && (
        <Input
          type="number"
          min={0}
          max={2}
          step={0.1}
          label={intl.formatMessage({ id: "bots.field.temperature" })}
          hint={intl.formatMessage({ id: "bots.field.temperatureHint" })}
          value={props.temperature}
          onChange={(e) => props.onChange({ temperature: Math.min(2, Math.max(0, Number(e.target.value) || 0)) })}
        />
      )}
    </div>
  );
}

export function VisibilityField({ value, onChange }: { value: BotVisibility; onChange: (v: BotVisibility) => void }) {
  const intl = useIntl();
  return (
    <fieldset className="choice-grid" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="field__label"><FormattedMessage id="bots.field.visibility" /></legend>
      {(["private", "public", "password"] as const).map((v) => (
        <label key={v} className="choice">
          <input type="radio" name="visibility" value={v} checked={value === v} onChange={() => onChange(v)} />
          <span className="choice__text">
            <span>{intl.formatMessage({ id: `bots.visibility.${v}` })}</span>
            <span className="choice__hint">{intl.formatMessage({ id: `bots.visibility.${v}Hint` })}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

export function VisibilityBadge({ visibility }: { visibility: BotVisibility }) {
  return (
    <span className={`badge badge--${visibility}`}>
      <FormattedMessage id={`bots.visibility.${visibility}`} />
    </span>
  );
}
