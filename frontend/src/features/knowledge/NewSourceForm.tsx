// Add a data source: pick a type, fill its form, upload files if any, insert the row (RLS
// decides) and start the first sync through the ingest function.
import { useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button } from "../../components/ui";
import { useCreateDataSourceMutation } from "../../data/dataSources/data-source-create-mutation";
import { DATA_SOURCE_TYPES, type DataSourceType } from "../../data/dataSources/types";
import { SourceTypeIcon, ErrorText } from "./badges";
import { csvHeader } from "./csv";
import { FileFields, pickFiles, type PickedFile } from "./FileFields";
import { fileKind, storagePath } from "./files";
import { emptyForm, toSettings, validateForm, type FormErrors, type SourceForm } from "./form";
import { CsvColumnPicker, NameField, NotionFields, ScheduleField, TextFields, WebGeneralFields, WebScrapingFields, YoutubeFields } from "./SourceFields";
import { uploadSourceFile } from "../../data/dataSources/source-file-upload";
import "./knowledge.css";

export interface NewSourceFormProps {
  botId: string;
  initialType?: DataSourceType;
  notionConnectHref?: string;
  /** A Notion connection made through OAuth (the callback sends the owner back with it). */
  notionConnectionId?: string | null;
  onCreated: (sourceId: string, syncFailed: boolean) => void;
  onCancel?: () => void;
  /** Test seam: uploads (defaults to Storage). */
  upload?: typeof uploadSourceFile;
}

export function NewSourceForm({ botId, initialType = "web", notionConnectHref, notionConnectionId, onCreated, onCancel, upload = uploadSourceFile }: NewSourceFormProps) {
  const intl = useIntl();
  const [form, setForm] = useState<SourceForm>(() => emptyForm(initialType));
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [cancelled, setCancelled] = useState(false);
  const uploads = useRef<AbortController | null>(null);
  const create = useCreateDataSourceMutation();
  const patch = (update: (f: SourceForm) => SourceForm) => setForm(update);

  const addFiles = async (added: File[]) => {
    const next = [...files, ...pickFiles(added)];
    setFiles(next);
    const firstCsv = next.find((f) => !f.problem && fileKind(f.file.name)?.kind === "csv");
    if (firstCsv && !form.csv.header) {
      const header = csvHeader(await firstCsv.file.slice(0, 64 * 1024).text());
      setForm((f) => ({ ...f, csv: { header, textColumns: header.filter(Boolean), titleColumn: "" } }));
    } else if (!firstCsv) setForm((f) => ({ ...f, csv: { header: null, textColumns: [], titleColumn: "" } }));
    if (!form.name.trim() && next[0]) setForm((f) => (f.name.trim() ? f : { ...f, name: next[0]!.file.name.slice(0, 200) }));
  };

  const removeFile = (i: number) => {
    const next = files.filter((_, j) => j !== i);
    setFiles(next);
    if (!next.some((f) => fileKind(f.file.name)?.kind === "csv")) setForm((f) => ({ ...f, csv: { header: null, textColumns: [], titleColumn: "" } }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    setCancelled(false);
    const errs = validateForm(form, { hasFiles: files.length > 0 });
    if (form.type === "file" && files.some((f) => f.problem)) errs.files = "sources.file.error.fix";
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setBusy(true);
    try {
      const uploaded: { path: string; name: string; mime: string }[] = [];
      if (form.type === "file") {
        const controller = new AbortController();
        uploads.current = controller;
        for (let i = 0; i < files.length; i++) {
          const f = files[i]!;
          const kind = fileKind(f.file.name)!;
          const path = storagePath(botId, f.file.name);
          const update = (patch: Partial<PickedFile>) => setFiles((list) => list.map((x, j) => (j === i ? { ...x, ...patch } : x)));
          update({ progress: 0, retrying: false });
          await upload(path, f.file, kind.mime, (progress) => update({ progress, retrying: false }), {
            signal: controller.signal,
            onRetry: () => update({ retrying: true }),
          });
          uploaded.push({ path, name: f.file.name, mime: kind.mime });
        }
      }
      const { source, syncError } = await create.mutateAsync({
        botId,
        type: form.type,
        name: form.name,
        settings: toSettings(form, uploaded),
        syncSchedule: form.schedule,
        notionToken: form.type === "notion" ? form.notion.token.trim() || undefined : undefined,
        // A pasted token wins over a connection: the owner typed it on purpose.
        notionConnectionId: form.type === "notion" && !form.notion.token.trim() ? notionConnectionId ?? undefined : undefined,
      });
      onCreated(source.id, !!syncError);
    } catch (err) {
      if (uploads.current?.signal.aborted) setCancelled(true);
      else setFailure(err);
      setFiles((list) => list.map((x) => ({ ...x, progress: null, retrying: false })));
    } finally {
      uploads.current = null;
      setBusy(false);
    }
  };

  return (
    <form className="ks-form" onSubmit={submit} noValidate aria-busy={busy || undefined}>
      <fieldset className="ks-types">
        <legend>
          <FormattedMessage id="sources.new.type" />
        </legend>
        {DATA_SOURCE_TYPES.map((t) => (
          <label key={t} className="ks-type-option">
            <input
              type="radio"
              name="source-type"
              value={t}
              checked={form.type === t}
              disabled={busy}
              onChange={() => {
                setErrors({});
                setForm((f) => ({ ...f, type: t }));
              }}
            />
            <SourceTypeIcon type={t} decorative />
            <span>
              <span className="ks-type-option__title">
                <FormattedMessage id={`sources.type.${t}`} />
              </span>
              <span className="ks-type-option__text">
                <FormattedMessage id={`sources.type.${t}.description`} />
              </span>
            </span>
          </label>
        ))}
      </fieldset>

      <NameField form={form} errors={errors} patch={patch} />
      {form.type === "web" && (
        <>
          <WebGeneralFields form={form} errors={errors} patch={patch} />
          {/* opened when a crawl rule is wrong, so its error is seen */}
          <details open={errors["web.delayMs"] || errors["web.concurrency"] ? true : undefined}>
            <summary>
              <FormattedMessage id="sources.web.advanced" />
            </summary>
            <div className="ks-form" style={{ marginTop: 12 }}>
              <WebScrapingFields form={form} errors={errors} patch={patch} />
            </div>
          </details>
        </>
      )}
      {form.type === "file" && (
        <>
          <FileFields
            files={files}
            onAdd={(f) => void addFiles(f)}
            onRemove={removeFile}
            onCancelUpload={() => uploads.current?.abort()}
            error={errors.files}
            disabled={busy}
          />
          {cancelled && (
            <p className="ks-alert ks-alert--info" role="status">
              <FormattedMessage id="sources.file.cancelled" />
            </p>
          )}
          <CsvColumnPicker form={form} errors={errors} patch={patch} />
        </>
      )}
      {form.type === "notion" && <NotionFields form={form} errors={errors} patch={patch} connectHref={notionConnectHref} connectionId={notionConnectionId} />}
      {form.type === "youtube" && <YoutubeFields form={form} errors={errors} patch={patch} />}
      {form.type === "text" && <TextFields form={form} errors={errors} patch={patch} />}
      {form.type !== "text" && form.type !== "file" && <ScheduleField value={form.schedule} onChange={(s) => setForm((f) => ({ ...f, schedule: s }))} />}

      {failure !== null && (
        <div className="ks-alert" role="alert">
          <ErrorText error={failure} />
        </div>
      )}
      <div className="ks-form__actions">
        {onCancel && (
          <Button theme="gray" onClick={onCancel} disabled={busy}>
            <FormattedMessage id="sources.action.cancel" />
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {intl.formatMessage({ id: "sources.new.submit" })}
        </Button>
      </div>
    </form>
  );
}
