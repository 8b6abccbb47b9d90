// The fields of each source type. Pure views over SourceForm: the new-source page and the
// settings tabs share them.
import { FormattedMessage, useIntl } from "react-intl";
import { Input, Select, Textarea } from "../../components/ui";
import { SYNC_SCHEDULES, type SyncSchedule } from "../../data/dataSources/types";
import type { FormErrors, SourceForm } from "./form";
import { NotionPicker, useNotionWorkspace } from "./NotionConnect";

type Patch = (update: (f: SourceForm) => SourceForm) => void;

function useErr(errors: FormErrors) {
  const intl = useIntl();
  return (key: string) => (errors[key] ? intl.formatMessage({ id: errors[key] }) : undefined);
}

export function NameField({ form, errors, patch }: { form: SourceForm; errors: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  return (
    <Input
      label={intl.formatMessage({ id: "sources.form.name" })}
      hint={intl.formatMessage({ id: "sources.form.name.hint" })}
      value={form.name}
      maxLength={200}
      required
      error={err("name")}
      onChange={(e) => patch((f) => ({ ...f, name: e.target.value }))}
    />
  );
}

export function ScheduleField({ value, onChange }: { value: SyncSchedule; onChange: (s: SyncSchedule) => void }) {
  const intl = useIntl();
  return (
    <Select
      label={intl.formatMessage({ id: "sources.form.schedule" })}
      hint={intl.formatMessage({ id: "sources.form.schedule.hint" })}
      value={value}
      options={SYNC_SCHEDULES.map((s) => ({ value: s, label: intl.formatMessage({ id: `sources.schedule.${s}` }) }))}
      onChange={(e) => onChange(e.target.value as SyncSchedule)}
    />
  );
}

/** Web: address, single page or crawl, depth and page limits. */
export function WebGeneralFields({ form, errors, patch }: { form: SourceForm; errors: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  const w = form.web;
  const set = (p: Partial<SourceForm["web"]>) => patch((f) => ({ ...f, web: { ...f.web, ...p } }));
  return (
    <>
      <fieldset className="ks-radio-row">
        <legend>
          <FormattedMessage id="sources.web.mode" />
        </legend>
        {(["crawl", "single"] as const).map((m) => (
          <label key={m} className="ks-check">
            <input type="radio" name="web-mode" value={m} checked={w.mode === m} onChange={() => set({ mode: m })} />
            <FormattedMessage id={`sources.web.mode.${m}`} />
          </label>
        ))}
      </fieldset>
      <Input
        type="url"
        inputMode="url"
        label={intl.formatMessage({ id: w.mode === "crawl" ? "sources.web.startUrl" : "sources.web.url" })}
        placeholder="https://example.com/docs/"
        value={w.url}
        required
        error={err("web.url")}
        onChange={(e) => set({ url: e.target.value })}
      />
      {w.mode === "crawl" && (
        <div className="ks-form__row">
          <Input
            type="number"
            min={0}
            max={20}
            label={intl.formatMessage({ id: "sources.web.depth" })}
            hint={intl.formatMessage({ id: "sources.web.depth.hint" })}
            value={w.maxDepth}
            error={err("web.maxDepth")}
            onChange={(e) => set({ maxDepth: e.target.value })}
          />
          <Input
            type="number"
            min={1}
            max={5000}
            label={intl.formatMessage({ id: "sources.web.pages" })}
            hint={intl.formatMessage({ id: "sources.web.pages.hint" })}
            value={w.maxPages}
            error={err("web.maxPages")}
            onChange={(e) => set({ maxPages: e.target.value })}
          />
        </div>
      )}
    </>
  );
}

/** Web: crawl rules (include/exclude globs, CSS selectors, sitemap, politeness delay and concurrency). */
export function WebScrapingFields({ form, errors = {}, patch }: { form: SourceForm; errors?: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  const w = form.web;
  const set = (p: Partial<SourceForm["web"]>) => patch((f) => ({ ...f, web: { ...f.web, ...p } }));
  const crawl = w.mode === "crawl";
  return (
    <>
      {crawl && (
        <div className="ks-form__row">
          <Textarea label={intl.formatMessage({ id: "sources.web.include" })} hint={intl.formatMessage({ id: "sources.web.include.hint" })} placeholder="/docs/**" value={w.include} rows={3} onChange={(e) => set({ include: e.target.value })} />
          <Textarea label={intl.formatMessage({ id: "sources.web.exclude" })} hint={intl.formatMessage({ id: "sources.web.exclude.hint" })} placeholder="/blog/**" value={w.exclude} rows={3} onChange={(e) => set({ exclude: e.target.value })} />
        </div>
      )}
      <div className="ks-form__row">
        <Textarea label={intl.formatMessage({ id: "sources.web.keep" })} hint={intl.formatMessage({ id: "sources.web.keep.hint" })} placeholder="main, article" value={w.keepSelectors} rows={3} onChange={(e) => set({ keepSelectors: e.target.value })} />
        <Textarea label={intl.formatMessage({ id: "sources.web.drop" })} hint={intl.formatMessage({ id: "sources.web.drop.hint" })} placeholder="nav, footer, .cookie-banner" value={w.dropSelectors} rows={3} onChange={(e) => set({ dropSelectors: e.target.value })} />
      </div>
      {crawl && (
        <label className="ks-check">
          <input type="checkbox" checked={w.useSitemap} onChange={(e) => set({ useSitemap: e.target.checked })} />
          <FormattedMessage id="sources.web.sitemap" />
        </label>
      )}
      {crawl && (
        <div className="ks-form__row">
          <Input
            type="number"
            min={0}
            max={10000}
            step={100}
            label={intl.formatMessage({ id: "sources.web.delay" })}
            hint={intl.formatMessage({ id: "sources.web.delay.hint" })}
            value={w.delayMs}
            error={err("web.delayMs")}
            onChange={(e) => set({ delayMs: e.target.value })}
          />
          <Input
            type="number"
            min={1}
            max={8}
            label={intl.formatMessage({ id: "sources.web.concurrency" })}
            hint={intl.formatMessage({ id: "sources.web.concurrency.hint" })}
            value={w.concurrency}
            error={err("web.concurrency")}
            onChange={(e) => set({ concurrency: e.target.value })}
          />
        </div>
      )}
    </>
  );
}

/**
 * Notion. On the new-source form (`connectHref`): "Connect Notion", then, once connected
 * (`connectionId`), a picker of the workspace's pages and databases; links and a pasted
 * integration token stay available under "Advanced". On the settings page: the lists and a
 * token that replaces the stored one.
 */
export function NotionFields({ form, errors, patch, connectHref, connectionId }: { form: SourceForm; errors: FormErrors; patch: Patch; connectHref?: string; connectionId?: string | null }) {
  const intl = useIntl();
  const err = useErr(errors);
  const n = form.notion;
  const set = (p: Partial<SourceForm["notion"]>) => patch((f) => ({ ...f, notion: { ...f.notion, ...p } }));
  const manual = (
    <>
      <Textarea
        label={intl.formatMessage({ id: "sources.notion.pages" })}
        hint={intl.formatMessage({ id: "sources.notion.pages.hint" })}
        placeholder="https://www.notion.so/Team-Handbook-0123456789abcdef0123456789abcdef"
        rows={3}
        value={n.pages}
        error={connectionId ? undefined : err("notion.pages")}
        onChange={(e) => set({ pages: e.target.value })}
      />
      <Textarea label={intl.formatMessage({ id: "sources.notion.databases" })} hint={intl.formatMessage({ id: "sources.notion.pages.hint" })} rows={2} value={n.databases} onChange={(e) => set({ databases: e.target.value })} />
      <Input
        type="password"
        autoComplete="off"
        label={intl.formatMessage({ id: "sources.notion.token" })}
        hint={intl.formatMessage({ id: connectHref ? "knowledge.notion.token.hint" : "knowledge.notion.token.replaceHint" })}
        value={n.token}
        onChange={(e) => set({ token: e.target.value })}
      />
    </>
  );
  if (!connectHref) return manual;
  return (
    <>
      {connectionId ? <NotionConnected connectionId={connectionId} connectHref={connectHref} /> : (
        <div className="ks-alert ks-alert--info">
          <p>
            <FormattedMessage id="knowledge.notion.connect.intro" />
          </p>
          <a className="btn btn--sm btn--primary" href={connectHref}>
            <FormattedMessage id="knowledge.notion.connect.button" />
          </a>
        </div>
      )}
      {connectionId && <NotionPicker connectionId={connectionId} form={form} patch={patch} error={err("notion.pages")} />}
      <details open={!connectionId && !!(n.pages || n.databases || n.token) ? true : undefined}>
        <summary>
          <FormattedMessage id="knowledge.notion.advanced" />
        </summary>
        <div className="ks-form" style={{ marginTop: 12 }}>
          {manual}
        </div>
      </details>
    </>
  );
}

function NotionConnected({ connectionId, connectHref }: { connectionId: string; connectHref: string }) {
  const workspace = useNotionWorkspace(connectionId);
  return (
    <div className="ks-alert ks-alert--info" data-testid="notion-connected">
      <p>
        <FormattedMessage id="knowledge.notion.connected" values={{ workspace: workspace ?? "Notion" }} />
      </p>
      <a className="btn btn--sm btn--secondary" href={connectHref}>
        <FormattedMessage id="knowledge.notion.reconnect" />
      </a>
    </div>
  );
}

export function YoutubeFields({ form, errors, patch }: { form: SourceForm; errors: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  return (
    <Input
      type="url"
      inputMode="url"
      label={intl.formatMessage({ id: "sources.youtube.url" })}
      hint={intl.formatMessage({ id: "sources.youtube.url.hint" })}
      placeholder="https://www.youtube.com/watch?v=…"
      value={form.youtube.url}
      required
      error={err("youtube.url")}
      onChange={(e) => patch((f) => ({ ...f, youtube: { url: e.target.value } }))}
    />
  );
}

export function TextFields({ form, errors, patch }: { form: SourceForm; errors: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  const set = (p: Partial<SourceForm["text"]>) => patch((f) => ({ ...f, text: { ...f.text, ...p } }));
  return (
    <>
      <Input label={intl.formatMessage({ id: "sources.text.title" })} value={form.text.title} maxLength={1000} onChange={(e) => set({ title: e.target.value })} />
      <Textarea label={intl.formatMessage({ id: "sources.text.body" })} rows={10} value={form.text.body} required error={err("text.body")} onChange={(e) => set({ body: e.target.value })} />
    </>
  );
}

/** CSV: which columns become the text of each row's document, and which is its title. */
export function CsvColumnPicker({ form, errors, patch }: { form: SourceForm; errors: FormErrors; patch: Patch }) {
  const intl = useIntl();
  const err = useErr(errors);
  const { header, textColumns, titleColumn } = form.csv;
  if (!header) return null;
  const toggle = (col: string, on: boolean) =>
    patch((f) => ({ ...f, csv: { ...f.csv, textColumns: on ? header.filter((h) => h === col || f.csv.textColumns.includes(h)) : f.csv.textColumns.filter((c) => c !== col) } }));
  return (
    <div className="ks-csv">
      <fieldset className="ks-csv__cols" aria-describedby={err("csv.textColumns") ? "csv-cols-error" : undefined}>
        <legend>
          <FormattedMessage id="sources.csv.textColumns" />
        </legend>
        {header.map((col) => (
          <label key={col} className="ks-check">
            <input type="checkbox" checked={textColumns.includes(col)} onChange={(e) => toggle(col, e.target.checked)} />
            {col}
          </label>
        ))}
      </fieldset>
      {err("csv.textColumns") && (
        <p id="csv-cols-error" className="ks-error" role="alert">
          {err("csv.textColumns")}
        </p>
      )}
      <Select
        label={intl.formatMessage({ id: "sources.csv.titleColumn" })}
        value={titleColumn}
        options={[{ value: "", label: intl.formatMessage({ id: "sources.csv.titleColumn.none" }) }, ...header.map((h) => ({ value: h, label: h }))]}
        onChange={(e) => patch((f) => ({ ...f, csv: { ...f.csv, titleColumn: e.target.value } }))}
      />
    </div>
  );
}
