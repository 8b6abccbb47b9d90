// /app/bots/:botId/power-ups/:functionId/settings: what the power-up does, when it is offered,
// its secrets (set / not set only) and, for HTTP actions, the test console.
import { useEffect, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { useLocalePath } from "../../../components/LocalizedLink";
import { Button, Input, Loading, Select, Textarea } from "../../../components/ui";
import { usePowerUpDeleteMutation } from "../../../data/powerUps/power-up-delete-mutation";
import { usePowerUpQuery } from "../../../data/powerUps/power-up-query";
import { usePowerUpSaveMutation } from "../../../data/powerUps/power-up-save-mutation";
import { useSecretNamesQuery, useSetSecretMutation } from "../../../data/powerUps/power-up-secrets";
import { readSettings } from "../../../data/powerUps/types";
import { ParameterEditor, type ParamSchema } from "../../../features/powerUps/ParameterEditor";
import { TestConsole } from "../../../features/powerUps/TestConsole";
import "../../../features/powerUps/powerUps.css";

const LEAD_FIELDS = ["name", "email", "phone", "company", "message"];

function secretNamesIn(settings: Record<string, unknown>): string[] {
  const headers = JSON.stringify(settings.headers ?? {});
  return [...new Set([...headers.matchAll(/\{\{\s*secret\.([A-Za-z0-9_-]+)\s*\}\}/g)].map((m) => m[1] ?? "").filter(Boolean))];
}

export default function PowerUpSettingsPage() {
  const { botId = "", functionId = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const query = usePowerUpQuery(functionId);
  const save = usePowerUpSaveMutation();
  const remove = usePowerUpDeleteMutation();
  const secrets = useSecretNamesQuery(functionId);
  const setSecret = useSetSecretMutation();
  const [draft, setDraft] = useState<{ label: string; description: string; phrases: string; settings: Record<string, unknown> } | null>(null);
  const [secretValues, setSecretValues] = useState<Record<string, string>>({});

  useEffect(() => {
    if (query.data && !draft) {
      setDraft({ label: query.data.label, description: query.data.description, phrases: query.data.example_phrases.join("\n"), settings: readSettings(query.data.settings) });
    }
  }, [query.data, draft]);

  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorNote error={query.error} />;
  if (!draft) return <Loading />;
  const p = query.data;
  const s = draft.settings;
  const setS = (patch: Record<string, unknown>) => setDraft({ ...draft, settings: { ...s, ...patch } });
  const text = (key: string) => (typeof s[key] === "string" ? (s[key] as string) : "");
  const needsModel = p.type === "http" && Object.keys(((s.parameters as ParamSchema | undefined)?.properties) ?? {}).length > 0;

  return (
    <div className="pu-page">
      <header className="pu-head">
        <div>
          <h1>{p.label || p.name}</h1>
          <p className="pu-muted"><FormattedMessage id={`powerUps.type.${p.type}`} /> · <code>{p.name}</code></p>
          <p className="pu-muted" data-testid="pu-needs-model">
            <FormattedMessage id={needsModel ? "powerUps.settings.needsModel" : "powerUps.settings.noModel"} />
          </p>
        </div>
      </header>
      <form className="pu-form" onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          botId, id: p.id, label: draft.label, description: draft.description,
          example_phrases: draft.phrases.split("\n").map((x) => x.trim()).filter(Boolean).slice(0, 20), settings: s,
        });
      }}>
        <Input label={intl.formatMessage({ id: "powerUps.settings.label" })} value={draft.label} maxLength={120} onChange={(e) => setDraft({ ...draft, label: e.target.value })} />
        <Textarea label={intl.formatMessage({ id: "powerUps.settings.description" })} hint={intl.formatMessage({ id: "powerUps.settings.descriptionHint" })} rows={3} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
        <Textarea label={intl.formatMessage({ id: "powerUps.settings.phrases" })} hint={intl.formatMessage({ id: "powerUps.settings.phrasesHint" })} rows={3} value={draft.phrases} onChange={(e) => setDraft({ ...draft, phrases: e.target.value })} />
        {p.type === "http" && (
          <>
            <Select label={intl.formatMessage({ id: "powerUps.settings.method" })} value={text("method") || "GET"} onChange={(e) => setS({ method: e.target.value })}
              options={["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => ({ value: m, label: m }))} />
            <Input label={intl.formatMessage({ id: "powerUps.settings.url" })} hint={intl.formatMessage({ id: "powerUps.settings.urlHint" })} value={text("url")} onChange={(e) => setS({ url: e.target.value })} />
            <Textarea label={intl.formatMessage({ id: "powerUps.settings.headers" })} hint={intl.formatMessage({ id: "powerUps.settings.headersHint" })} rows={3}
              defaultValue={Object.entries((s.headers as Record<string, string>) ?? {}).map(([k, v]) => `${k}: ${v}`).join("\n")}
              onChange={(e) => setS({ headers: Object.fromEntries(e.target.value.split("\n").map((l) => l.split(/:(.*)/s)).flatMap(([k, v]) => (k?.trim() && v !== undefined ? [[k.trim(), v.trim()]] : []))) })} />
            <ParameterEditor value={(s.parameters as ParamSchema) ?? { type: "object", properties: {} }} onChange={(v) => setS({ parameters: v })} />
            <Textarea label={intl.formatMessage({ id: "powerUps.settings.body" })} rows={3} value={text("body")} onChange={(e) => setS({ body: e.target.value || undefined })} />
            <Input label={intl.formatMessage({ id: "powerUps.settings.responsePath" })} value={text("response_path")} onChange={(e) => setS({ response_path: e.target.value })} />
            <Input label={intl.formatMessage({ id: "powerUps.settings.maxChars" })} type="number" min={100} max={20000} value={Number(s.max_chars ?? 4000)} onChange={(e) => setS({ max_chars: Number(e.target.value) })} />
            <Input label={intl.formatMessage({ id: "powerUps.settings.timeout" })} type="number" min={500} max={30000} value={Number(s.timeout_ms ?? 10000)} onChange={(e) => setS({ timeout_ms: Number(e.target.value) })} />
          </>
        )}
        {p.type === "lead" && (
          <fieldset>
            <legend><FormattedMessage id="powerUps.settings.fields" /></legend>
            {LEAD_FIELDS.map((f) => (
              <label key={f} style={{ marginInlineEnd: "1rem" }}>
                <input type="checkbox" checked={((s.fields as string[]) ?? []).includes(f)}
                  onChange={(e) => setS({ fields: e.target.checked ? [...((s.fields as string[]) ?? []), f] : ((s.fields as string[]) ?? []).filter((x) => x !== f), required: ((s.required as string[]) ?? []).filter((x) => x !== f || e.target.checked) })} />{" "}
                <FormattedMessage id={`powerUps.field.${f}`} />
              </label>
            ))}
          </fieldset>
        )}
        {p.type === "link" && (
          <>
            <Input label={intl.formatMessage({ id: "powerUps.settings.linkLabel" })} value={text("link_label")} onChange={(e) => setS({ link_label: e.target.value })} />
            <Input label={intl.formatMessage({ id: "powerUps.settings.linkUrl" })} type="url" value={text("link_url")} onChange={(e) => setS({ link_url: e.target.value })} />
          </>
        )}
        {p.type === "handoff" && (
          <Textarea label={intl.formatMessage({ id: "powerUps.settings.handoffText" })} rows={2} value={text("handoff_text")} onChange={(e) => setS({ handoff_text: e.target.value })} />
        )}
        <div>
          <Button type="submit" loading={save.isPending}><FormattedMessage id="powerUps.settings.save" /></Button>{" "}
          <Button theme="delete" loading={remove.isPending} onClick={() => remove.mutate({ id: p.id, botId }, { onSuccess: () => navigate(localePath(`/app/bots/${botId}/power-ups`)) })}>
            <FormattedMessage id="powerUps.settings.delete" />
          </Button>
        </div>
        {save.isSuccess && <p role="status"><FormattedMessage id="powerUps.settings.saved" /></p>}
        {save.isError && <ErrorNote error={save.error} />}
      </form>
      {p.type === "http" && (
        <section aria-labelledby="pu-secrets">
          <h2 id="pu-secrets"><FormattedMessage id="powerUps.secrets.title" /></h2>
          {secretNamesIn(s).length === 0 && <p className="pu-muted"><FormattedMessage id="powerUps.secrets.none" /></p>}
          {secretNamesIn(s).map((name) => (
            <div key={name} className="pu-form" data-secret={name}>
              <p>
                <code>{name}</code>:{" "}
                <FormattedMessage id={(secrets.data ?? []).includes(name) ? "powerUps.secrets.set" : "powerUps.secrets.notSet"} />
              </p>
              <Input label={intl.formatMessage({ id: "powerUps.secrets.value" }, { name })} type="password" autoComplete="off" value={secretValues[name] ?? ""} onChange={(e) => setSecretValues({ ...secretValues, [name]: e.target.value })} />
              <Button size="sm" disabled={!secretValues[name]} loading={setSecret.isPending}
                onClick={() => setSecret.mutate({ id: p.id, name, value: secretValues[name] ?? "" }, { onSuccess: () => setSecretValues({ ...secretValues, [name]: "" }) })}>
                <FormattedMessage id="powerUps.secrets.save" />
              </Button>
            </div>
          ))}
          {setSecret.isError && <ErrorNote error={setSecret.error} />}
          <TestConsole powerUpId={p.id} settings={s} />
        </section>
      )}
    </div>
  );
}
