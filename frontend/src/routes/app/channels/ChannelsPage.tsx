// /app/bots/:botId/channels — every channel type with its channels (status, last message,
// message count) and a way to add one. The web channel comes with the bot (one per bot, see
// 20261127030000_web_channel.sql), so its card shows the embed code instead of "Add".
import { useState, type FormEvent } from "react";
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { Button, Input, Loading } from "../../../components/ui";
import { useCreateChannelMutation } from "../../../data/channels/channel-mutations";
import { useLiveChannels } from "../../../data/channels/use-live-channels";
import { useChannelsQuery } from "../../../data/channels/channels-query";
import { CHANNEL_TYPES, type Channel, type ChannelType } from "../../../data/channels/types";
import { ChannelStatusBadge } from "../../../features/channels/ChannelStatusBadge";
import { WebEmbed } from "../../../features/channels/WebEmbed";
import { getConfig } from "../../../lib/config";
import { LocalizedLink, useLocalePath } from "../../../components/LocalizedLink";
import "../../../features/channels/channels.css";

const settingsPath = (botId: string, id: string) => `/app/bots/${botId}/channels/${id}/settings`;

function AddChannel({ botId, type }: { botId: string; type: ChannelType }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const create = useCreateChannelMutation();
  const [name, setName] = useState("");
  const [open, setOpen] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ botId, type, name: name.trim() || intl.formatMessage({ id: `channels.type.${type}` }) }, {
      onSuccess: (c) => void navigate(lp(settingsPath(botId, c.id))),
    });
  };
  if (!open) {
    return (
      <Button size="sm" theme="secondary" onClick={() => setOpen(true)}
        aria-label={intl.formatMessage({ id: "channels.add.named" }, { type: intl.formatMessage({ id: `channels.type.${type}` }) })}>
        <FormattedMessage id="channels.add" />
      </Button>
    );
  }
  return (
    <form onSubmit={submit} className="ch-form">
      <Input label={intl.formatMessage({ id: "channels.field.name" })} value={name} maxLength={100} autoFocus
        placeholder={intl.formatMessage({ id: `channels.type.${type}` })} onChange={(e) => setName(e.target.value)} />
      {create.isError && <p className="ch-error" role="alert"><FormattedMessage id="channels.error.save" /></p>}
      <div className="ch-actions">
        <Button type="submit" size="sm" loading={create.isPending}><FormattedMessage id="channels.add.create" /></Button>
        <Button size="sm" theme="transparent" onClick={() => setOpen(false)}><FormattedMessage id="channels.delete.cancel" /></Button>
      </div>
    </form>
  );
}

function ChannelItem({ botId, channel }: { botId: string; channel: Channel }) {
  return (
    <li className="ch-card__item" data-channel-id={channel.id}>
      <div className="ch-card__row">
        <LocalizedLink to={settingsPath(botId, channel.id)}>{channel.name}</LocalizedLink>
        <ChannelStatusBadge channel={channel} />
      </div>
      <div className="ch-card__meta">
        <FormattedMessage id="channels.list.messages" values={{ count: <FormattedNumber key="count" value={channel.message_count} /> }} />
        {" · "}
        {channel.last_event_at ? (
          <FormattedMessage id="channels.list.last" values={{ when: <FormattedDate key="when" value={channel.last_event_at} dateStyle="medium" timeStyle="short" /> }} />
        ) : (
          <FormattedMessage id="channels.list.noEvents" />
        )}
      </div>
      {channel.enabled && channel.status === "needs_attention" && channel.last_error && <p className="ch-error">{channel.last_error}</p>}
    </li>
  );
}

export default function ChannelsPage() {
  const { botId = "" } = useParams();
  const channels = useChannelsQuery(botId);
  useLiveChannels(botId);
  return (
    <div className="ch-page">
      <header className="ch-head">
        <div>
          <h1><FormattedMessage id="channels.list.title" /></h1>
          <p className="ch-muted"><FormattedMessage id="channels.list.lead" /></p>
        </div>
      </header>
      {channels.isPending ? (
        <Loading />
      ) : channels.isError ? (
        <p className="ch-error" role="alert"><FormattedMessage id="channels.error.load" /></p>
      ) : (
        <div className="ch-grid">
          {CHANNEL_TYPES.map((type) => {
            const mine = channels.data.filter((c) => c.type === type);
            return (
              <section key={type} className="ch-card" aria-labelledby={`ch-type-${type}`} data-channel-type={type}>
                <h2 id={`ch-type-${type}`}><FormattedMessage id={`channels.type.${type}`} /></h2>
                <p className="ch-muted"><FormattedMessage id={`channels.type.${type}.lead`} /></p>
                {mine.length > 0 && (
                  <ul className="ch-card__list">
                    {mine.map((c) => <ChannelItem key={c.id} botId={botId} channel={c} />)}
                  </ul>
                )}
                {type === "web" ? <WebEmbed botId={botId} siteUrl={getConfig().siteUrl} /> : <AddChannel botId={botId} type={type} />}
              </section>
            );
          })}
        </div>
      )}
    </div>
  );
}
