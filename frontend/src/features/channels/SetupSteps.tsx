// Step-by-step setup for the channel's platform, with the URL to paste into it.
import { FormattedMessage, useIntl } from "react-intl";
import type { Channel } from "../../data/channels/types";
import { CopyField } from "./CopyField";
import { PLATFORMS } from "./platforms";

export function SetupSteps({ channel, webhookUrl }: { channel: Channel; webhookUrl: string | null }) {
  const intl = useIntl();
  const steps = Array.from({ length: PLATFORMS[channel.type].steps }, (_, i) => i + 1);
  return (
    <section className="ch-section" aria-labelledby="ch-setup-title">
      <h2 id="ch-setup-title"><FormattedMessage id="channels.setup.title" /></h2>
      <ol className="ch-steps">
        {steps.map((n) => (
          <li key={n}><FormattedMessage id={`channels.setup.${channel.type}.${n}`} /></li>
        ))}
      </ol>
      {webhookUrl && <CopyField label={intl.formatMessage({ id: "channels.setup.url" })} value={webhookUrl} testId="channel-webhook-url" />}
    </section>
  );
}
