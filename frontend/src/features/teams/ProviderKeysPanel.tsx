// The team's model provider keys: set or remove per provider. Keys are write-only; the
// list shows only their last four characters (list_team_provider_keys).
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Loading, Select } from "../../components/ui";
import { KEY_PROVIDERS as PROVIDERS, type KeyProvider as Provider } from "../../data/bots/types";
import { useProviderKeysQuery } from "../../data/teams/provider-keys-query";
import { useRemoveProviderKeyMutation } from "../../data/teams/provider-key-remove-mutation";
import { useSetProviderKeyMutation } from "../../data/teams/provider-key-set-mutation";
import type { MyTeam } from "../../data/teams/my-teams-query";
import { ErrorNote } from "../../components/ErrorNote";
import { providerLabelId } from "../../components/labels";

export function ProviderKeysPanel({ team }: { team: MyTeam }) {
  const intl = useIntl();
  const keys = useProviderKeysQuery(team.id);
  const setKey = useSetProviderKeyMutation();
  const removeKey = useRemoveProviderKeyMutation();
  const [provider, setProvider] = useState<Provider>("openai");
  const [apiKey, setApiKey] = useState("");
  const [baseUrl, setBaseUrl] = useState("");
  const [touched, setTouched] = useState(false);
  const urlInvalid = baseUrl.trim() !== "" && !/^https?:\/\/\S+$/.test(baseUrl.trim());
  const empty = apiKey.trim() === "" && baseUrl.trim() === "";
  const providerLabel = (p: string) => intl.formatMessage({ id: providerLabelId(p) });

  return (
    <section className="panel" aria-labelledby="keys-title">
      <h2 id="keys-title"><FormattedMessage id="teams.keys.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="teams.keys.intro" /></p>
      {keys.isPending && <Loading />}
      {keys.isError && <ErrorNote error={keys.error} />}
      {keys.data && keys.data.length === 0 && <p className="form-note"><FormattedMessage id="teams.keys.none" /></p>}
      {keys.data && keys.data.length > 0 && (
        <ul className="rows" style={{ marginBottom: "1rem" }}>
          {keys.data.map((k) => (
            <li key={k.provider}>
              <div className="rows__main">
                <div className="rows__title">{providerLabel(k.provider)}</div>
                <div className="rows__meta">
                  {k.has_api_key ? intl.formatMessage({ id: "teams.keys.endsWith" }, { last4: k.api_key_last4 ?? "····" }) : intl.formatMessage({ id: "teams.keys.noKey" })}
                  {k.base_url ? ` · ${k.base_url}` : ""}
                </div>
              </div>
              <Button size="sm" theme="delete" loading={removeKey.isPending && removeKey.variables?.provider === k.provider} onClick={() => removeKey.mutate({ teamId: team.id, provider: k.provider })}>
                <FormattedMessage id="teams.keys.remove" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        noValidate
        className="form-stack"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (urlInvalid || empty) return;
          setKey.mutate(
            { teamId: team.id, provider, apiKey: apiKey.trim() || null, baseUrl: baseUrl.trim() || null },
            { onSuccess: () => { setApiKey(""); setBaseUrl(""); setTouched(false); } },
          );
        }}
      >
        <div className="form-row">
          <Select label={intl.formatMessage({ id: "teams.keys.provider" })} value={provider} onChange={(e) => setProvider(e.target.value as Provider)} options={PROVIDERS.map((p) => ({ value: p, label: providerLabel(p) }))} />
          <Input type="password" autoComplete="off" label={intl.formatMessage({ id: "teams.keys.apiKey" })} value={apiKey} onChange={(e) => setApiKey(e.target.value)} error={touched && empty ? intl.formatMessage({ id: "teams.keys.required" }) : undefined} />
        </div>
        <Input type="url" label={intl.formatMessage({ id: "teams.keys.baseUrl" })} hint={intl.formatMessage({ id: "teams.keys.baseUrlHint" })} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} error={touched && urlInvalid ? intl.formatMessage({ id: "teams.keys.baseUrlInvalid" }) : undefined} />
        <ErrorNote error={setKey.error ?? removeKey.error} />
        <div className="form-actions">
          <Button type="submit" loading={setKey.isPending}><FormattedMessage id="teams.keys.save" /></Button>
        </div>
      </form>
    </section>
  );
}
