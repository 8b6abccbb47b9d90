// A person of the team in the visitor's chat: whether the visitor waits for one, a reply box
// (the reply reaches the visitor live and keeps the bot quiet) and the hand-back to the bot.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Textarea } from "../../components/ui";
import { ErrorNote } from "../../components/ErrorNote";
import { useHandBackMutation, useHumanReplyMutation } from "../../data/chats/handoff-mutations";

const MAX_REPLY = 10_000;

export function HandoffPanel({ chatId, needsHuman }: { chatId: string; needsHuman: boolean }) {
  const intl = useIntl();
  const reply = useHumanReplyMutation();
  const handBack = useHandBackMutation();
  const [text, setText] = useState("");

  function send(e: FormEvent) {
    e.preventDefault();
    const content = text.trim();
    if (!content || reply.isPending) return;
    reply.mutate({ chat_id: chatId, content }, { onSuccess: () => setText("") });
  }

  return (
    <section className="conv-handoff" aria-label={intl.formatMessage({ id: "conversations.handoff.label" })}>
      {needsHuman && (
        <div className="conv-handoff__state" role="status">
          <p>
            <FormattedMessage id="conversations.handoff.waiting" />
          </p>
          <Button size="sm" theme="gray" disabled={handBack.isPending} onClick={() => handBack.mutate({ chat_id: chatId })}>
            <FormattedMessage id="conversations.handoff.handBack" />
          </Button>
        </div>
      )}
      {handBack.isError && <ErrorNote error={handBack.error} />}
      <form className="conv-handoff__reply" onSubmit={send}>
        <Textarea
          label={intl.formatMessage({ id: "conversations.handoff.replyLabel" })}
          hint={needsHuman ? undefined : intl.formatMessage({ id: "conversations.handoff.replyNote" })}
          value={text}
          maxLength={MAX_REPLY}
          rows={3}
          onChange={(e) => setText(e.target.value)}
        />
        {reply.isError && <ErrorNote error={reply.error} />}
        <Button size="sm" type="submit" disabled={!text.trim() || reply.isPending}>
          <FormattedMessage id="conversations.handoff.send" />
        </Button>
      </form>
    </section>
  );
}
