import { FormattedMessage } from "react-intl";
import type { Channel } from "../../data/channels/types";
import "./channels.css";

/** "Off" when disabled, else connected / needs attention / not connected. */
export function ChannelStatusBadge({ channel }: { channel: Pick<Channel, "enabled" | "status"> }) {
  const status = channel.enabled ? channel.status : "off";
  return (
    <span className={`ch-badge ch-badge--${status}`} data-status={status}>
      <FormattedMessage id={`channels.status.${status.replace(/_/g, "-")}`} />
    </span>
  );
}
