// "Add as test case" on an answer of the owner's conversation view: the visitor's question with
// the answer (corrected by the owner, if they edit it) as the expected answer.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Textarea } from "../../components/ui";
import { useAddTestCaseFromMessageMutation } from "../../data/tests/test-case-mutations";

export function AddTestCaseButton({ botId, messageId, answer }: { botId: string; messageId: string; answer: string }) {
  const intl = useIntl();
  const add = useAddTestCaseFromMessageMutation(botId);
  const [open, setOpen] = useState(false);
  const [expected, setExpected] = useState(answer);
  if (add.isSuccess) return <span role="status" className="form-note"><FormattedMessage id="tests.conversation.added" /></span>;
  if (!open) {
    return (
      <Button size="xxs" theme="secondary" onClick={() => setOpen(true)}>
        <FormattedMessage id="tests.conversation.add" />
      </Button>
    );
  }
  return (
    <form onSubmit={(e) => { e.preventDefault(); add.mutate({ messageId, expectedAnswer: expected }); }}>
      <Textarea label={intl.formatMessage({ id: "tests.cases.expected" })} value={expected} onChange={(e) => setExpected(e.target.value)} rows={3} maxLength={20000} />
      <Button size="xs" type="submit" loading={add.isPending}><FormattedMessage id="tests.conversation.add" /></Button>
      {add.error && <ErrorNote error={add.error} />}
    </form>
  );
}
