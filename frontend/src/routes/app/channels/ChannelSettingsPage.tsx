// /app/bots/:botId/channels/:channelId/settings — one channel: status, setup steps and
// the URL to paste into the platform, credentials (only whether each is set), settings,
// connect / test message / disconnect, enable/disable, delete.
import { FormattedMessage } from "react-intl";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { EmptyState, Loading } from "../../../components/ui";
import { useLiveChannels } from "../../../data/channels/use-live-channels";
import { useChannelQuery } from "../../../data/channels/channels-query";
import { getConfig } from "../../../lib/config";
import { ApiKeys } from "../../../features/channels/ApiKeys";
import { ChannelActions } from "../../../features/channels/ChannelActions";
import { ChannelStatusBadge } from "../../../features/channels/ChannelStatusBadge";
import { CredentialsForm } from "../../../features/channels/CredentialsForm";
import { PLATFORMS, receiverUrl } from "../../../features/channels/platforms";
import { SettingsForm } from "../../../features/channels/SettingsForm";
import { SetupSteps } from "../../../features/channels/SetupSteps";
import { WebEmbed } from "../../../features/channels/WebEmbed";
import { LocalizedLink, useLocalePath } from "../../../components/LocalizedLink";
import "../../../features/channels/channels.css";

export default function ChannelSettingsPage() {
  const { botId = "", channelId = "" } = useParams();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const channel = useChannelQuery(channelId);
  const [search] = useSearchParams();
  useLiveChannels(botId);
  const { apiBaseUrl, siteUrl } = getConfig();
  const back = `/app/bots/${botId}/channels`;
  if (channel.isPending) return <Loading />;
  if (channel.isError) return <p className="ch-error" role="alert"><FormattedMessage id="channels.error.load" /></p>;
  const c = channel.data;
  if (!c || c.bot_id !== botId) {
    return <EmptyState title={<FormattedMessage id="channels.notFound" />} action={<LocalizedLink to={back}><FormattedMessage id="channels.back" /></LocalizedLink>} />;
  }
  const webhookUrl = PLATFORMS[c.type].messaging ? receiverUrl(apiBaseUrl, c) : null;
  return (
    <div className="ch-page">
      <p className="ch-muted"><LocalizedLink to={back}><FormattedMessage id="channels.back" /></LocalizedLink></p>
      <header className="ch-head">
        <div>
          <h1>{c.name}</h1>
          <p className="ch-muted"><FormattedMessage id={`channels.type.${c.type}`} /></p>
        </div>
        <ChannelStatusBadge channel={c} />
      </header>
      {search.get("installed") === "slack" && <p role="status"><FormattedMessage id="channels.install.done" /></p>}
      {search.get("install_error") && (
        <p className="ch-error" role="alert"><FormattedMessage id="channels.install.failed" values={{ code: search.get("install_error") }} /></p>
      )}
      {c.enabled && c.status === "needs_attention" && c.last_error && (
        <p className="ch-error" role="alert"><FormattedMessage id="channels.lastError" values={{ error: c.last_error }} /></p>
      )}
      <SetupSteps channel={c} webhookUrl={webhookUrl} />
      {c.type === "web" && <WebEmbed botId={botId} siteUrl={siteUrl} />}
      {c.type === "api" && <ApiKeys botId={botId} apiBaseUrl={apiBaseUrl} />}
      {PLATFORMS[c.type].secrets.length > 0 && (
        <section className="ch-section"><CredentialsForm channel={c} /></section>
      )}
      <section className="ch-section"><SettingsForm key={c.id} channel={c} /></section>
      <ChannelActions channel={c} onDeleted={() => void navigate(lp(back))} />
    </div>
  );
}
