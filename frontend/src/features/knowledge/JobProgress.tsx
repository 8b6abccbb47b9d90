// A progress bar for one ingestion job row (live through realtime updates of the row).
import { FormattedMessage, useIntl } from "react-intl";
import { jobPercent, type IngestionJob } from "../../data/ingestionJobs/types";
import { cx } from "../../components/ui";
import "./knowledge.css";

export function JobProgress({ job, compact }: { job: Pick<IngestionJob, "status" | "progress_done" | "progress_total" | "cancel_requested">; compact?: boolean }) {
  const intl = useIntl();
  const pct = jobPercent(job);
  const label = intl.formatMessage({ id: "sources.progress.label" });
  const text =
    job.status === "queued"
      ? intl.formatMessage({ id: "sources.progress.queued" })
      : job.status === "running"
        ? job.cancel_requested
          ? intl.formatMessage({ id: "sources.progress.cancelling" })
          : job.progress_total > 0
            ? intl.formatMessage({ id: "sources.progress.running" }, { done: job.progress_done, total: job.progress_total })
            : intl.formatMessage({ id: "sources.progress.starting" })
        : intl.formatMessage({ id: `sources.job.status.${job.status}` });
  return (
    <div className={cx("ks-progress", compact && "ks-progress--compact", `ks-progress--${job.status}`)}>
      <div
        className="ks-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct ?? undefined}
        aria-valuetext={text}
        data-status={job.status}
      >
        <div className={cx("ks-progress__bar", pct === null && "ks-progress__bar--indeterminate")} style={{ width: pct === null ? undefined : `${pct}%` }} />
      </div>
      <span className="ks-progress__text" aria-live="polite">
        <span>{text}</span>
        {pct !== null && job.status === "running" && !job.cancel_requested && <span><FormattedMessage id="sources.progress.percent" values={{ pct }} /></span>}
      </span>
    </div>
  );
}
