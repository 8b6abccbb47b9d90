// A confirmation for destructive actions; with `typed`, the person must type that text
// (a name) before the button unlocks.
import { useState, type ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Dialog, Input } from "./ui";

export function ConfirmDialog(props: {
  open: boolean;
  title: ReactNode;
  body: ReactNode;
  confirmLabel: ReactNode;
  typed?: string;
  busy?: boolean;
  error?: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const intl = useIntl();
  const [text, setText] = useState("");
  const locked = props.typed !== undefined && text.trim() !== props.typed;
  return (
    <Dialog
      open={props.open}
      onClose={() => {
        setText("");
        props.onClose();
      }}
      title={props.title}
      footer={
        <>
          <Button theme="gray" onClick={() => { setText(""); props.onClose(); }}>
            <FormattedMessage id="teams.common.cancel" />
          </Button>
          <Button theme="delete" disabled={locked} loading={props.busy} onClick={props.onConfirm}>
            {props.confirmLabel}
          </Button>
        </>
      }
    >
      <div className="form-stack">
        <p className="form-note">{props.body}</p>
        {props.typed !== undefined && (
          <Input
            label={intl.formatMessage({ id: "teams.common.typeToConfirm" }, { text: props.typed })}
            value={text}
            autoComplete="off"
            onChange={(e) => setText(e.target.value)}
          />
        )}
        {props.error}
      </div>
    </Dialog>
  );
}
