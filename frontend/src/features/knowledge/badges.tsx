import type React from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { DataSourceStatus, DataSourceType } from "../../data/dataSources/types";
import { errorMessage } from "../../lib/errors";
import "./knowledge.css";

// Inline SVG (stroke icons, currentColor): emoji fonts are not everywhere.
const PATHS: Record<DataSourceType, string> = {
  web: "M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18zM3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z",
  file: "M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5M9 13h6M9 17h6",
  notion: "M5 4h14v16H5zM9 16V8l6 8V8",
  youtube: "M3 8.5C3 6.6 4.6 5 6.5 5h11C19.4 5 21 6.6 21 8.5v7c0 1.9-1.6 3.5-3.5 3.5h-11C4.6 19 3 17.4 3 15.5zM10 9v6l5-3z",
  text: "M4 6h16M4 10h16M4 14h10M4 18h7",
};
const ICONS: Record<DataSourceType, React.ReactNode> = Object.fromEntries(
  Object.entries(PATHS).map(([k, d]) => [
    k,
    <svg key={k} viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>,
  ]),
) as Record<DataSourceType, React.ReactNode>;

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
  const { id, values } = errorMessage(error);
  return <FormattedMessage id={id} values={values} />;
}
