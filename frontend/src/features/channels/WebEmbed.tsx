// The web channel: the widget's embed code and the hosted chat page.
import { useIntl } from "react-intl";
import { CopyField } from "./CopyField";

export function WebEmbed({ botId, siteUrl }: { botId: string; siteUrl: string }) {
  const intl = useIntl();
  const site = siteUrl.replace(/\/+$/, "");
  return (
    <section className="ch-section" aria-label={intl.formatMessage({ id: "channels.web.title" })}>
      <CopyField label={intl.formatMessage({ id: "channels.web.snippet" })} value={`<script src="${site}/widget.js" data-bot-id="${botId}" defer></script>`} testId="widget-snippet" />
      <CopyField label={intl.formatMessage({ id: "channels.web.page" })} value={`${site}/bots/${botId}`} />
    </section>
  );
}
