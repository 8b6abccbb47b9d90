// The settings tabs of a data source: content, general, syncing, scraping (web), documents.
import { useEffect, useState, type FormEvent } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { Button, Dialog, Input, Loading, useToast } from "../../components/ui";
import { useUpdateDataSourceMutation } from "../../data/dataSources/data-source-update-mutation";
import type { DataSource } from "../../data/dataSources/types";
import { useDeleteDocumentMutation } from "../../data/documents/document-delete-mutation";
import { useReingestDocumentMutation } from "../../data/documents/document-reingest-mutation";
import { useDocumentQuery } from "../../data/documents/document-query";
import { useDocumentsQuery, type DocumentRow } from "../../data/documents/documents-query";
import { useSourceJobsQuery } from "../../data/ingestionJobs/ingestion-jobs-query";
import { isActiveJob } from "../../data/ingestionJobs/types";
import { Duration, ErrorText, When } from "./badges";
import { fromSource, settingsFiles, toSettings, validateForm, type FormErrors, type SourceForm } from "./form";
import { JobProgress } from "./JobProgress";
import { JobErrors, SyncNowButton } from "./SourceParts";
import { CsvColumnPicker, NameField, NotionFields, ScheduleField, TextFields, WebGeneralFields, WebScrapingFields, YoutubeFields } from "./SourceFields";
import "./knowledge.css";

/** Keeps an edit form in step with the row until the user starts typing. */
function useSourceForm(source: DataSource) {
  const [form, setForm] = useState<SourceForm>(() => fromSource(source));
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setForm(fromSource(source));
  }, [source, dirty]);
  const patch = (update: (f: SourceForm) => SourceForm) => {
    setDirty(true);
    setForm(update);
  };
  return { form, patch, reset: () => setDirty(false) };
}

function SaveBar({ pending, error, saved }: { pending: boolean; error: unknown; saved: boolean }) {
  return (
    <div className="ks-form__actions">
      {saved && !pending && (
        <span className="ks-muted" role="status">
          <FormattedMessage id="sources.settings.saved" />
        </span>
      )}
      {error != null && (
        <span className="ks-error" role="alert">
          <ErrorText error={error} />
        </span>
      )}
      <Button type="submit" loading={pending}>
        <FormattedMessage id="sources.action.save" />
      </Button>
    </div>
  );
}

function useSave(source: DataSource, form: SourceForm, reset: () => void, which: "general" | "scraping" | "syncing") {
  const update = useUpdateDataSourceMutation();
  const [errors, setErrors] = useState<FormErrors>({});
  const [saved, setSaved] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    const errs = which === "syncing" ? {} : validateForm(form, { isNew: false });
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const files = settingsFiles(source.settings);
    const patch =
      which === "syncing"
        ? { sync_schedule: form.schedule }
        : {
            name: form.name.trim(),
            settings: { ...source.settings, ...toSettings(form, files) },
            ...(source.type === "notion" && form.notion.token.trim() ? { notionToken: form.notion.token.trim() } : {}),
          };
    update.mutate({ id: source.id, botId: source.bot_id, ...patch }, { onSuccess: () => (reset(), setSaved(true)) });
  };
  return { submit, errors, saved, update };
}

export function GeneralTab({ source }: { source: DataSource }) {
  const intl = useIntl();
  const { form, patch, reset } = useSourceForm(source);
  const { submit, errors, saved, update } = useSave(source, form, reset, "general");
  const files = settingsFiles(source.settings);
  return (
    <form className="ks-form" onSubmit={submit} noValidate>
      <NameField form={form} errors={errors} patch={patch} />
      {source.type === "web" && <WebGeneralFields form={form} errors={errors} patch={patch} />}
      {source.type === "notion" && <NotionFields form={form} errors={errors} patch={patch} />}
      {source.type === "youtube" && <YoutubeFields form={form} errors={errors} patch={patch} />}
      {source.type === "text" && <TextFields form={form} errors={errors} patch={patch} />}
      {source.type === "file" && (
        <>
          <ul className="ks-files" aria-label={intl.formatMessage({ id: "sources.settings.files" })}>
            {files.map((f) => (
              <li key={f.path}>{f.name || f.path}</li>
            ))}
          </ul>
          <CsvColumnPicker form={form} errors={errors} patch={patch} />
        </>
      )}
      <p className="ks-muted">
        <FormattedMessage id="sources.settings.resyncHint" />
      </p>
      <SaveBar pending={update.isPending} error={update.error} saved={saved} />
    </form>
  );
}

export function ScrapingTab({ source }: { source: DataSource }) {
  const { form, patch, reset } = useSourceForm(source);
  const { submit, errors, saved, update } = useSave(source, form, reset, "scraping");
  if (source.type !== "web")
    return (
      <p className="ks-muted">
        <FormattedMessage id="sources.scraping.webOnly" />
      </p>
    );
  return (
    <form className="ks-form" onSubmit={submit} noValidate>
      <WebScrapingFields form={form} errors={errors} patch={patch} />
      <SaveBar pending={update.isPending} error={update.error} saved={saved} />
    </form>
  );
}

export function SyncingTab({ source }: { source: DataSource }) {
  const { form, patch, reset } = useSourceForm(source);
  const { submit, saved, update } = useSave(source, form, reset, "syncing");
  const jobs = useSourceJobsQuery(source.id);
  const active = isActiveJob(jobs.data?.[0]);
  return (
    <div className="ks-form">
      <form className="ks-form" onSubmit={submit} noValidate>
        <ScheduleField value={form.schedule} onChange={(s) => patch((f) => ({ ...f, schedule: s }))} />
        <SaveBar pending={update.isPending} error={update.error} saved={saved} />
      </form>
      <div className="ks-head">
        <h2>
          <FormattedMessage id="sources.syncing.history" />
        </h2>
        <SyncNowButton source={source} busyJob={active} />
      </div>
      {jobs.isPending ? (
        <Loading />
      ) : jobs.isError ? (
        <p className="ks-error" role="alert"><ErrorText error={jobs.error} /></p>
      ) : jobs.data.length === 0 ? (
        <p className="ks-muted"><FormattedMessage id="sources.detail.noJobs" /></p>
      ) : (
        <div className="ks-table-wrap">
          <table className="ks-table">
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="sources.syncing.started" /></th>
                <th scope="col"><FormattedMessage id="sources.syncing.trigger" /></th>
                <th scope="col"><FormattedMessage id="sources.col.progress" /></th>
                <th scope="col"><FormattedMessage id="sources.syncing.duration" /></th>
                <th scope="col"><FormattedMessage id="sources.job.errors" /></th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.map((j) => (
                <tr key={j.id}>
                  <td><When at={j.started_at ?? j.created_at} /></td>
                  <td><FormattedMessage id={`sources.trigger.${j.trigger}`} /></td>
                  <td><JobProgress job={j} compact /></td>
                  <td><Duration from={j.started_at} to={j.finished_at} /></td>
                  <td>
                    {j.errors.length === 0 ? (
                      <span className="ks-muted">0</span>
                    ) : (
                      <details>
                        <summary><FormattedNumber value={j.errors.length} /></summary>
                        <JobErrors errors={j.errors} />
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function DocumentText({ id }: { id: string }) {
  const doc = useDocumentQuery(id);
  if (doc.isPending) return <Loading />;
  if (doc.isError) return <p className="ks-error" role="alert"><ErrorText error={doc.error} /></p>;
  if (!doc.data) return <p className="ks-muted"><FormattedMessage id="sources.error.notFound" /></p>;
  const d = doc.data;
  return (
    <article aria-labelledby="doc-title">
      <h3 id="doc-title">{d.title || d.url}</h3>
      <p className="ks-url">{d.url}</p>
      {d.error && <p className="ks-error">{d.error}</p>}
      <pre className="ks-text" data-testid="document-text">{d.content || <FormattedMessage id="sources.content.noText" />}</pre>
    </article>
  );
}

function useSearch() {
  const [search, setSearch] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(t);
  }, [search]);
  return { search, setSearch, debounced };
}

export function ContentTab({ source }: { source: DataSource }) {
  const intl = useIntl();
  const { search, setSearch, debounced } = useSearch();
  const docs = useDocumentsQuery(source.id, debounced);
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected ?? docs.data?.[0]?.id ?? null;
  return (
    <div className="ks-form" style={{ maxWidth: "none" }}>
      <Input type="search" label={intl.formatMessage({ id: "sources.documents.search" })} hideLabel placeholder={intl.formatMessage({ id: "sources.documents.search" })} value={search} onChange={(e) => setSearch(e.target.value)} />
      {docs.isPending ? (
        <Loading />
      ) : docs.isError ? (
        <p className="ks-error" role="alert"><ErrorText error={docs.error} /></p>
      ) : docs.data.length === 0 ? (
        <p className="ks-muted"><FormattedMessage id={debounced ? "sources.documents.noMatch" : "sources.documents.empty"} /></p>
      ) : (
        <div className="ks-preview">
          <ul className="ks-doclist" aria-label={intl.formatMessage({ id: "sources.tab.documents" })}>
            {docs.data.map((d) => (
              <li key={d.id}>
                <button type="button" aria-current={d.id === current} onClick={() => setSelected(d.id)}>
                  {d.title || d.url}
                  <small>{d.url}</small>
                </button>
              </li>
            ))}
          </ul>
          {current && <DocumentText id={current} />}
        </div>
      )}
    </div>
  );
}

export function DocumentsTab({ source }: { source: DataSource }) {
  const intl = useIntl();
  const toast = useToast();
  const { search, setSearch, debounced } = useSearch();
  const docs = useDocumentsQuery(source.id, debounced);
  const del = useDeleteDocumentMutation();
  const reingest = useReingestDocumentMutation();
  const [confirm, setConfirm] = useState<DocumentRow | null>(null);
  const actionError = del.error ?? reingest.error;
  return (
    <div className="ks-form" style={{ maxWidth: "none" }}>
      <Input type="search" label={intl.formatMessage({ id: "sources.documents.search" })} value={search} onChange={(e) => setSearch(e.target.value)} />
      {actionError && <p className="ks-error" role="alert"><ErrorText error={actionError} /></p>}
      {docs.isPending ? (
        <Loading />
      ) : docs.isError ? (
        <p className="ks-error" role="alert"><ErrorText error={docs.error} /></p>
      ) : docs.data.length === 0 ? (
        <p className="ks-muted"><FormattedMessage id={debounced ? "sources.documents.noMatch" : "sources.documents.empty"} /></p>
      ) : (
        <div className="ks-table-wrap">
          <table className="ks-table">
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="sources.documents.title" /></th>
                <th scope="col"><FormattedMessage id="sources.col.status" /></th>
                <th scope="col"><FormattedMessage id="sources.documents.size" /></th>
                <th scope="col"><FormattedMessage id="sources.documents.updated" /></th>
                <th scope="col"><span className="sr-only"><FormattedMessage id="sources.col.actions" /></span></th>
              </tr>
            </thead>
            <tbody>
              {docs.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    {d.title || d.url}
                    <div className="ks-url">{d.url}</div>
                    {d.error && <div className="ks-error">{d.error}</div>}
                  </td>
                  <td><FormattedMessage id={`sources.document.status.${d.status}`} /></td>
                  <td className="ks-table__num"><FormattedNumber value={d.size_bytes / 1024} maximumFractionDigits={1} /> KB</td>
                  <td><When at={d.updated_at} /></td>
                  <td>
                    <div className="ks-head__actions">
                      <Button size="xs" theme="secondary" aria-label={intl.formatMessage({ id: "sources.documents.reingestNamed" }, { name: d.title || d.url })} onClick={() => reingest.mutate({ id: d.id, sourceId: source.id }, { onSuccess: () => toast.show("sources.toast.syncStarted") })}>
                        <FormattedMessage id="sources.documents.reingest" />
                      </Button>
                      <Button size="xs" theme="delete" aria-label={intl.formatMessage({ id: "sources.documents.deleteNamed" }, { name: d.title || d.url })} onClick={() => setConfirm(d)}>
                        <FormattedMessage id="sources.action.delete" />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={<FormattedMessage id="sources.documents.delete.title" />}
        footer={
          <>
            <Button theme="gray" onClick={() => setConfirm(null)}>
              <FormattedMessage id="sources.action.cancel" />
            </Button>
            <Button theme="error" loading={del.isPending} onClick={() => confirm && del.mutate({ id: confirm.id, sourceId: source.id }, { onSettled: () => setConfirm(null) })}>
              <FormattedMessage id="sources.delete.confirm" />
            </Button>
          </>
        }
      >
        <p>
          <FormattedMessage id="sources.documents.delete.text" values={{ name: confirm?.title || confirm?.url || "" }} />
        </p>
      </Dialog>
    </div>
  );
}
