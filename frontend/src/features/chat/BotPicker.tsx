// "New private chat with another bot": the bots of the team the signed-in person may chat with.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Dialog, Loading, Select } from "../../components/ui";
import { useSiblingBotsQuery } from "../../data/bots/sibling-bots-query";

export function BotPicker({ botId, onClose, onPick }: { botId: string; onClose: () => void; onPick: (id: string) => void }) {
  const intl = useIntl();
  const bots = useSiblingBotsQuery(botId, true);
  const [choice, setChoice] = useState(botId);
  return (
    <Dialog
      open
      onClose={onClose}
      title={intl.formatMessage({ id: "chat.picker.title" })}
      footer={
        <>
          <Button theme="secondary" onClick={onClose}>
            <FormattedMessage id="chat.picker.cancel" />
          </Button>
          <Button
            onClick={() => {
              onClose();
              onPick(choice);
            }}
            disabled={!bots.data?.length}
          >
            <FormattedMessage id="chat.picker.start" />
          </Button>
        </>
      }
    >
      {bots.isPending ? (
        <Loading />
      ) : bots.isError ? (
        <p role="alert"><FormattedMessage id="chat.error.generic" /></p>
      ) : (
        <Select label={intl.formatMessage({ id: "chat.picker.label" })} value={choice} onChange={(e) => setChoice(e.target.value)} options={(bots.data ?? []).map((b) => ({ value: b.id, label: b.name }))} />
      )}
    </Dialog>
  );
}
