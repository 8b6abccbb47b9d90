// Files to upload: type and size checks before anything is sent, a progress bar with its
// percentage per file while uploading (saying so when a lost connection is being retried),
// a button that cancels the upload, and the CSV header for the column picker.
import { useId } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { Button } from "../../components/ui";
import { FilePicker } from "../../components/FilePicker";
import { ACCEPT, checkFile, type FileProblem } from "./files";

export interface PickedFile {
  file: File;
  problem: FileProblem | null;
  /** 0..1 while uploading, 1 when done, null before. */
  progress: number | null;
  /** The connection was lost and the upload is trying again (resumable uploads). */
  retrying?: boolean;
}

export function FileFields({
  files,
  onAdd,
  onRemove,
  onCancelUpload,
  error,
  disabled,
}: {
  files: PickedFile[];
  onAdd: (files: File[]) => void;
  onRemove: (index: number) => void;
  /** Shown as a button while files are uploading. */
  onCancelUpload?: () => void;
  error?: string;
  disabled?: boolean;
}) {
  const uploading = files.some((f) => f.progress !== null && f.progress < 1);
  const intl = useIntl();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        <FormattedMessage id="sources.file.choose" />
      </label>
      <FilePicker
        id={id}
        multiple
        accept={ACCEPT}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        button={<FormattedMessage id="sources.file.pick" />}
        status={<FormattedMessage id="sources.file.chosen" values={{ count: files.length }} />}
        onFiles={onAdd}
      />
      <p id={`${id}-hint`} className="field__hint">
        <FormattedMessage id="sources.file.hint" />
      </p>
      {error && (
        <p className="ks-error" role="alert">
          {intl.formatMessage({ id: error })}
        </p>
      )}
      {files.length > 0 && (
        <ul className="ks-files" aria-label={intl.formatMessage({ id: "sources.file.list" })}>
          {files.map((f, i) => (
            <li key={`${f.file.name}-${i}`}>
              <div className="ks-files__row">
                <span>
                  {f.file.name} <span className="ks-muted">(<FormattedNumber value={f.file.size / 1024} maximumFractionDigits={1} /> KB)</span>
                </span>
                {f.progress === null && (
                  <Button size="xs" theme="transparent" onClick={() => onRemove(i)} disabled={disabled} aria-label={intl.formatMessage({ id: "sources.file.remove" }, { name: f.file.name })}>
                    ×
                  </Button>
                )}
              </div>
              {f.problem && (
                <p className="ks-error" role="alert">
                  <FormattedMessage id={f.problem} values={{ name: f.file.name }} />
                </p>
              )}
              {f.progress !== null && (
                <div className="ks-progress ks-progress--compact">
                  <div
                    className="ks-progress__track"
                    role="progressbar"
                    aria-label={intl.formatMessage({ id: "sources.file.uploading" }, { name: f.file.name })}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(f.progress * 100)}
                  >
                    <div className="ks-progress__bar" style={{ width: `${Math.round(f.progress * 100)}%` }} />
                  </div>
                  <span className="ks-progress__text">
                    <FormattedNumber value={Math.floor(f.progress * 100) / 100} style="percent" />
                    {f.retrying && f.progress < 1 && (
                      <span role="status">
                        <FormattedMessage id="sources.file.retrying" />
                      </span>
                    )}
                  </span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {uploading && onCancelUpload && (
        <div>
          <Button size="sm" theme="gray" onClick={onCancelUpload}>
            <FormattedMessage id="sources.file.cancelUpload" />
          </Button>
        </div>
      )}
    </div>
  );
}

export const pickFiles = (files: File[]): PickedFile[] => files.map((file) => ({ file, problem: checkFile(file), progress: null }));
