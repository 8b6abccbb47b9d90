import { FormattedMessage, useIntl } from "react-intl";
import type { DataSourceStatus, DataSourceType } from "../../data/dataSources/types";
import "./knowledge.css";

const ICONS: Record<DataSourceType, string> = { web: "🌐", file: "📄", notion: "🗒️", youtube: "▶️", text: "✏️" };

/** `decorative` when a visible label next to it already names the type. */
export function SourceTypeIcon({ type, decorative }: { type: DataSourceType; decorative?: boolean }) {
  const intl = useIntl();
  if (decorative)
    return (
      <span className={`ks-type ks-type--${type}`} aria-hidden="true">
        {ICONS[type]}
      </span>
    );
  return (
    <span className={`ks-type ks-type--${type}`} role="img" aria-label={intl.formatMessage({ id: `sources.type.${type}` })}>
      {ICONS[type]}
    </span>
  );
}

export function StatusBadge({ status }: { status: DataSourceStatus }) {
  return (
    <span className={`ks-badge ks-badge--${status}`} data-status={status}>
      <FormattedMessage id={`sources.status.${status}`} />
    </span>
  );
}

/** A relative or absolute date ("never" when null). */
export function When({ at }: { at: string | null }) {
  const intl = useIntl();
  if (!at) return <FormattedMessage id="sources.never" />;
  const d = new Date(at);
  return <time dateTime={at} title={intl.formatDate(d, { dateStyle: "full", timeStyle: "medium" })}>{intl.formatDate(d, { dateStyle: "medium", timeStyle: "short" })}</time>;
}

/** A job's duration ("1 min 5 s"), or nothing while it has not started. */
export function Duration({ from, to }: { from: string | null; to: string | null }) {
  if (!from) return <>–</>;
  const ms = Math.max(0, (to ? new Date(to) : new Date()).getTime() - new Date(from).getTime());
  const s = Math.round(ms / 1000);
  return <FormattedMessage id="sources.duration" values={{ min: Math.floor(s / 60), sec: s % 60 }} />;
}

/** An error for people: the code's message when we have one, else the server's text. */
export function ErrorText({ error }: { error: unknown }) {
  const intl = useIntl();
  const e = error as { code?: string; message?: string; status?: number } | null;
  const code = e?.code ?? "";
  const known: Record<string, string> = {
    "42501": "sources.error.forbidden",
    PGRST301: "sources.error.session",
    not_signed_in: "sources.error.session",
    sync_in_progress: "sources.error.syncInProgress",
    not_found: "sources.error.notFound",
    network_error: "sources.error.network",
    "23514": "sources.error.invalid",
  };
  const id = known[code] ?? (e?.status === 404 ? "sources.error.notFound" : e?.status === 413 ? "sources.file.error.size" : undefined);
  return <>{id ? intl.formatMessage({ id }) : intl.formatMessage({ id: "sources.error.generic" }, { message: e?.message ?? String(error) })}</>;
}
