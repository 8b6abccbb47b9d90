// The message box: Enter sends, Shift+Enter is a new line; images come from "browse",
// drag and drop, or paste, and are checked before they are uploaded.
import { useEffect, useId, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { checkImage, MAX_IMAGES, type ImageProblem } from "./images";

const PROBLEM_MESSAGES: Record<ImageProblem, string> = {
  too_large: "chat.images.tooLarge",
  too_many: "chat.images.tooMany",
  unsupported_type: "chat.images.unsupportedType",
};

export interface PendingImage {
  id: string;
  file: File;
  preview: string;
  status: "uploading" | "ready" | "failed";
  path?: string;
}

export interface ComposerProps {
  disabled?: boolean;
  busy?: boolean;
  onSend: (text: string) => void;
  images: PendingImage[];
  onAddImages: (files: File[]) => void;
  onRemoveImage: (id: string) => void;
  allowImages?: boolean;
  /** The visitor started writing (called on input): what the first message needs can start now. */
  onTyping?: () => void;
}

export function Composer({ disabled, busy, onSend, images, onAddImages, onRemoveImage, allowImages = true, onTyping }: ComposerProps) {
  const intl = useIntl();
  const id = useId();
  const [text, setText] = useState("");
  const [showDrop, setShowDrop] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [problems, setProblems] = useState<{ name: string; problem: ImageProblem }[]>([]);
  const fileRef = useRef<HTMLInputElement>(null);
  const uploading = images.some((i) => i.status === "uploading");
  const canSend = !disabled && !busy && !uploading && text.trim().length > 0;

  useEffect(() => {
    if (!problems.length) return;
    const t = setTimeout(() => setProblems([]), 8000);
    return () => clearTimeout(t);
  }, [problems]);

  function addFiles(files: File[]) {
    if (!allowImages || !files.length) return;
    const bad: { name: string; problem: ImageProblem }[] = [];
    const good: File[] = [];
    for (const f of files) {
      const p = checkImage(f);
      if (p) bad.push({ name: f.name || "image", problem: p });
      else if (images.length + good.length >= MAX_IMAGES) bad.push({ name: f.name || "image", problem: "too_many" });
      else good.push(f);
    }
    setProblems(bad);
    if (good.length) onAddImages(good);
  }

  function submit(e?: FormEvent) {
    e?.preventDefault();
    if (!canSend) return;
    onSend(text.trim());
    setText("");
    setShowDrop(false);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  }

  function onPaste(e: ClipboardEvent<HTMLTextAreaElement>) {
    const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/") || /\.\w+$/.test(f.name));
    if (files.length) {
      e.preventDefault();
      addFiles(files);
    }
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    addFiles([...e.dataTransfer.files]);
  }

  return (
    <form
      className={`chat-composer${dragging ? " chat-composer--dragging" : ""}`}
      onSubmit={submit}
      onDragOver={(e) => {
        if (!allowImages) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {problems.length > 0 && (
        <ul className="chat-composer__problems" role="alert">
          {problems.map((p, i) => (
            <li key={i}>
              <FormattedMessage id={PROBLEM_MESSAGES[p.problem]} values={{ name: p.name, max: MAX_IMAGES, size: "5 MB", types: "PNG, JPG, JPEG, WEBP, GIF" }} />
            </li>
          ))}
        </ul>
      )}
      {images.length > 0 && (
        <ul className="chat-thumbs" aria-label={intl.formatMessage({ id: "chat.images.attached" })}>
          {images.map((img) => (
            <li key={img.id} className={`chat-thumb chat-thumb--${img.status}`}>
              <img src={img.preview} alt={img.file.name} />
              {img.status === "uploading" && <span className="chat-thumb__state"><FormattedMessage id="chat.images.uploading" /></span>}
              {img.status === "failed" && <span className="chat-thumb__state"><FormattedMessage id="chat.images.failed" /></span>}
              <button type="button" className="chat-thumb__remove" onClick={() => onRemoveImage(img.id)} aria-label={intl.formatMessage({ id: "chat.images.remove" }, { name: img.file.name })}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {allowImages && showDrop && (
        <div className="chat-dropzone">
          <span><FormattedMessage id="chat.images.drop" /></span>
          <button type="button" className="chat-link-button" onClick={() => fileRef.current?.click()}>
            <FormattedMessage id="chat.images.browse" />
          </button>
        </div>
      )}
      <input
        ref={fileRef}
        type="file"
        accept=".png,.jpg,.jpeg,.webp,.gif,image/png,image/jpeg,image/webp,image/gif"
        multiple
        hidden
        data-testid="chat-file-input"
        onChange={(e) => {
          addFiles([...(e.target.files ?? [])]);
          e.target.value = "";
        }}
      />
      <div className="chat-composer__row">
        {allowImages && (
          <button
            type="button"
            className="chat-icon-button"
            aria-label={intl.formatMessage({ id: "chat.images.add" })}
            aria-expanded={showDrop}
            title={intl.formatMessage({ id: "chat.images.add" })}
            disabled={disabled}
            onClick={() => setShowDrop((s) => !s)}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M19 5v14H5V5h14m0-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2zm-4.86 8.86-3 3.87L9 13.14 6 17h12l-3.86-5.14z" /></svg>
          </button>
        )}
        <label htmlFor={id} className="sr-only">
          <FormattedMessage id="chat.composer.label" />
        </label>
        <textarea
          id={id}
          className="chat-composer__input"
          rows={1}
          value={text}
          maxLength={4000}
          disabled={disabled}
          placeholder={intl.formatMessage({ id: "chat.composer.placeholder" })}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value) onTyping?.();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <button type="submit" className="chat-send" disabled={!canSend} aria-label={intl.formatMessage({ id: "chat.composer.send" })}>
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path fill="currentColor" d="M2.01 21 23 12 2.01 3 2 10l15 2-15 2z" /></svg>
        </button>
      </div>
    </form>
  );
}
