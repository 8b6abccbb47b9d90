// The filter bar; every change rewrites the URL (the URL is the state).
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Select } from "../../components/ui";
import { CHANNELS } from "../../data/chats/types";
import { FEEDBACK_FILTERS, type ConversationFilters as Filters } from "./filters";

export function ConversationFilters(props: { filters: Filters; bots: { id: string; name: string }[]; onChange: (f: Filters) => void; needsHumanCount?: number }) {
  const intl = useIntl();
  const { filters: f, onChange } = props;
  const set = (patch: Partial<Filters>) => {
    const next: Filters = { ...f, ...patch };
    for (const k of Object.keys(next) as (keyof Filters)[]) if (!next[k]) delete next[k];
    onChange(next);
  };
  const any = intl.formatMessage({ id: "conversations.filters.any" });
  return (
    <form className="conv-filters" role="search" aria-label={intl.formatMessage({ id: "conversations.filters.label" })} onSubmit={(e) => e.preventDefault()}>
      <Select
        label={intl.formatMessage({ id: "conversations.filters.bot" })}
        value={f.botId ?? ""}
        onChange={(e) => set({ botId: e.target.value || undefined })}
        options={[{ value: "", label: intl.formatMessage({ id: "conversations.filters.allBots" }) }, ...props.bots.map((b) => ({ value: b.id, label: b.name }))]}
      />
      <Select
        label={intl.formatMessage({ id: "conversations.filters.channel" })}
        value={f.channel ?? ""}
        onChange={(e) => set({ channel: (e.target.value || undefined) as Filters["channel"] })}
        options={[{ value: "", label: any }, ...CHANNELS.map((c) => ({ value: c, label: intl.formatMessage({ id: `conversations.channel.${c}` }) }))]}
      />
      <Input type="date" label={intl.formatMessage({ id: "conversations.filters.from" })} value={f.from ?? ""} max={f.to} onChange={(e) => set({ from: e.target.value || undefined })} />
      <Input type="date" label={intl.formatMessage({ id: "conversations.filters.to" })} value={f.to ?? ""} min={f.from} onChange={(e) => set({ to: e.target.value || undefined })} />
      <Select
        label={intl.formatMessage({ id: "conversations.filters.feedback" })}
        value={f.feedback ?? ""}
        onChange={(e) => set({ feedback: (e.target.value || undefined) as Filters["feedback"] })}
        options={[{ value: "", label: any }, ...FEEDBACK_FILTERS.map((v) => ({ value: v, label: intl.formatMessage({ id: `conversations.filters.feedback.${v}` }) }))]}
      />
      <label className="conv-filters__human">
        <input type="checkbox" checked={!!f.human} onChange={(e) => set({ human: e.target.checked || undefined })} />{" "}
        <FormattedMessage id="conversations.needsHuman.label" />
        {!!props.needsHumanCount && (
          <span className="badge conv-badge--human">
            {props.needsHumanCount}
            <span className="sr-only">
              {" "}
              <FormattedMessage id="conversations.needsHuman.count" values={{ count: props.needsHumanCount }} />
            </span>
          </span>
        )}
      </label>
      {Object.keys(f).length > 0 && (
        <Button theme="gray" size="sm" type="button" onClick={() => onChange({})}>
          <FormattedMessage id="conversations.filters.clear" />
        </Button>
      )}
    </form>
  );
}
