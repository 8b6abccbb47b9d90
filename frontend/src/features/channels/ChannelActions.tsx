// Connect, send a test message, disconnect (channels-connect), enable/disable and delete.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Dialog } from "../../components/ui";
import { useChannelActionMutation, type ChannelAction } from "../../data/channels/channel-action-mutation";
import { useDeleteChannelMutation, useUpdateChannelMutation } from "../../data/channels/channel-mutations";
import type { Channel } from "../../data/channels/types";
import { CopyField } from "./CopyField";
import { PLATFORMS } from "./platforms";

export function ChannelActions({ channel, onDeleted }: { channel: Channel; onDeleted: () => void }) {
  const intl = useIntl();
  const action = useChannelActionMutation();
  const update = useUpdateChannelMutation();
  const remove = useDeleteChannelMutation();
  const [done, setDone] = useState<ChannelAction | null>(null);
  const [shown, setShown] = useState<Record<string, string> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const run = (a: ChannelAction) => {
    setDone(null);
    action.mutate({ id: channel.id, botId: channel.bot_id, action: a }, {
      onSuccess: (r) => {
        // Installing through Slack's OAuth continues on Slack's page, then comes back here.
        if (a === "install" && r.authorize_url) {
          window.location.assign(r.authorize_url);
          return;
        }
        setDone(a);
        if (r.show_once) setShown(r.show_once);
      },
    });
  };
  const failure = action.error as (Error & { code?: string }) | null;

  return (
    <section className="ch-section" aria-labelledby="ch-actions-title">
      <h2 id="ch-actions-title"><FormattedMessage id="channels.actions.title" /></h2>
      <div className="ch-actions">
        <Button onClick={() => run("connect")} loading={action.isPending && action.variables?.action === "connect"}>
          <FormattedMessage id={channel.status === "connected" ? "channels.actions.reconnect" : "channels.actions.connect"} />
        </Button>
        {channel.type === "slack" && channel.settings.client_id && (
          <Button theme="secondary" onClick={() => run("install")} loading={action.isPending && action.variables?.action === "install"}>
            <FormattedMessage id="channels.actions.install" />
          </Button>
        )}
        {PLATFORMS[channel.type].messaging && (
          <Button theme="secondary" onClick={() => run("test")} loading={action.isPending && action.variables?.action === "test"}>
            <FormattedMessage id="channels.actions.test" />
          </Button>
        )}
        {channel.status !== "not_connected" && (
          <Button theme="gray" onClick={() => run("disconnect")} loading={action.isPending && action.variables?.action === "disconnect"}>
            <FormattedMessage id="channels.actions.disconnect" />
          </Button>
        )}
        <Button theme="secondary" loading={update.isPending}
          onClick={() => update.mutate({ id: channel.id, botId: channel.bot_id, enabled: !channel.enabled })}>
          <FormattedMessage id={channel.enabled ? "channels.actions.disable" : "channels.actions.enable"} />
        </Button>
        {/* The web channel goes with its bot (the database refuses to delete it). */}
        {channel.type !== "web" && (
          <Button theme="delete" onClick={() => setConfirming(true)}><FormattedMessage id="channels.actions.delete" /></Button>
        )}
      </div>
      {done && done !== "install" && <p role="status"><FormattedMessage id={`channels.actions.done.${done}`} /></p>}
      {failure && (
        <p className="ch-error" role="alert">
          <FormattedMessage id="channels.actions.failed" values={{ reason: failure.message }} />
        </p>
      )}
      {shown &&
        Object.entries(shown).map(([k, v]) => (
          <div key={k} role="status">
            <p><FormattedMessage id="channels.showOnce" /></p>
            <CopyField label={intl.formatMessage({ id: `channels.secret.${k.replace(/_/g, "-")}` })} value={v} testId={`show-once-${k}`} />
          </div>
        ))}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<FormattedMessage id="channels.delete.title" />}
        footer={
          <>
            <Button theme="secondary" onClick={() => setConfirming(false)}><FormattedMessage id="channels.delete.cancel" /></Button>
            <Button theme="delete" loading={remove.isPending}
              onClick={() => remove.mutate({ id: channel.id, botId: channel.bot_id }, { onSuccess: () => { setConfirming(false); onDeleted(); } })}>
              <FormattedMessage id="channels.delete.confirm" />
            </Button>
          </>
        }
      >
        <p><FormattedMessage id="channels.delete.text" values={{ name: channel.name }} /></p>
      </Dialog>
    </section>
  );
}
