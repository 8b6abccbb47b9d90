// A file input in the interface's language: the native input (whose "Choose File / No file
// chosen" follows the browser's language) stays in the DOM but hidden, with its label and
// test handles; a real button opens it and a line next to it says what was chosen.
// Used by the account and bot avatars and the data source file picker.
import { useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { FormattedMessage } from "react-intl";
import { Button, type ButtonSize } from "./ui";
import { AVATAR_TYPES, checkAvatarFile, uploadAvatar } from "../data/profiles/avatar-upload";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "onChange" | "hidden" | "children" | "size">;

export function FilePicker({
  button,
  status,
  onFiles,
  loading,
  size = "sm",
  ...input
}: InputProps & {
  /** The button's text, e.g. "Choose an image". */
  button: ReactNode;
  /** What is chosen (file names) or that nothing is; announced with the button. */
  status: ReactNode;
  onFiles: (files: File[]) => void;
  loading?: boolean;
  size?: ButtonSize;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const statusId = useId();
  return (
    <div style={{ display: "flex", alignItems: "center", gap: "0.6rem", flexWrap: "wrap", minWidth: 0 }}>
      <input
        {...input}
        ref={ref}
        type="file"
        hidden
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = "";
          onFiles(files);
        }}
      />
      <Button size={size} theme="secondary" loading={loading} disabled={input.disabled} aria-describedby={[statusId, input["aria-describedby"]].filter(Boolean).join(" ")} onClick={() => ref.current?.click()}>
        {button}
      </Button>
      <span id={statusId} aria-live="polite" style={{ color: "var(--text-muted)", overflowWrap: "anywhere" }}>
        {status}
      </span>
    </div>
  );
}

/**
 * An avatar picker: checks the image in the browser, uploads it under the user's folder
 * (`kind` as in uploadAvatar) and hands the public URL to `save`; problems go to `onError`
 * (null when a new attempt starts).
 */
export function AvatarPicker({
  kind,
  save,
  onError,
  ...input
}: Omit<InputProps, "accept"> & { kind: string; save: (url: string) => Promise<unknown>; onError: (error: unknown) => void }) {
  const [fileName, setFileName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <FilePicker
      {...input}
      accept={AVATAR_TYPES.join(",")}
      disabled={busy || input.disabled}
      loading={busy}
      button={<FormattedMessage id="account.avatar.choose" />}
      status={fileName ?? <FormattedMessage id="account.avatar.none" />}
      onFiles={async ([file]) => {
        if (!file) return;
        setFileName(file.name);
        onError(null);
        const problem = checkAvatarFile(file);
        if (problem) return onError({ code: `avatar_${problem}`, message: "" });
        setBusy(true);
        try {
          await save(await uploadAvatar(file, kind));
        } catch (err) {
          onError(err);
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}
