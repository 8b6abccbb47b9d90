// /app/bots/:botId/data-source/:dataSourceId — status, counts, the current job live,
// its per-document errors, cancel / retry / sync now, delete; below the links to the settings
// tabs, a preview of the source's documents and their text, so the page is never empty.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams } from "react-router";
import { Button, buttonClassName, Loading } from "../../../components/ui";
import { useDataSourceQuery } from "../../../data/dataSources/data-source-query";
import { useSourceJobsQuery } from "../../../data/ingestionJobs/ingestion-jobs-query";
import { useCancelJobMutation } from "../../../data/ingestionJobs/job-cancel-mutation";
import { useRetryJobMutation } from "../../../data/ingestionJobs/job-retry-mutation";
import { isActiveJob } from "../../../data/ingestionJobs/types";
import { useLiveJobs } from "../../../data/ingestionJobs/use-live-jobs";
import { useStaleSourceCheck } from "../../../data/ingestionJobs/use-stale-source-check";
import { ErrorText, When } from "../../../features/knowledge/badges";
import { JobProgress } from "../../../features/knowledge/JobProgress";
import { ContentTab } from "../../../features/knowledge/SettingsTabs";
import { DeleteSourceButton, JobErrors, settingsPath, SourceHeader, SyncNowButton } from "../../../features/knowledge/SourceParts";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { sourceLoadState } from "../../../features/knowledge/SourceLoadState";
import { errorMessage } from "../../../lib/errors";
import "../../../features/knowledge/knowledge.css";

export default function DataSourcePage() {
  const { botId = "", dataSourceId = "" } = useParams();
  const intl = useIntl();
  const source = useDataSourceQuery(dataSourceId);
  const jobs = useSourceJobsQuery(dataSourceId);
  const cancel = useCancelJobMutation();
  const retry = useRetryJobMutation();
  useLiveJobs(botId);
  useStaleSourceCheck(source.data ? [source.data] : [], () => jobs.data?.[0]);

  const pending = sourceLoadState(source, botId);
  if (pending || !source.data) return pending;
  const s = source.data;
  const job = jobs.data?.[0];
  const active = isActiveJob(job);
  const actionError = cancel.error ?? retry.error;
  return (
    <div className="ks-page">
      <SourceHeader source={s}>
        <SyncNowButton source={s} busyJob={active} />
        <LocalizedLink className={buttonClassName({ size: "sm", theme: "gray" })} to={settingsPath(botId, s.id)}>
          <FormattedMessage id="sources.detail.settings" />
        </LocalizedLink>
        <DeleteSourceButton source={s} />
      </SourceHeader>

      <dl className="ks-stats">
        <div>
          <dt><FormattedMessage id="sources.col.documents" /></dt>
          <dd data-testid="document-count"><FormattedNumber value={s.document_count} /></dd>
        </div>
        <div>
          <dt><FormattedMessage id="sources.col.chunks" /></dt>
          <dd><FormattedNumber value={s.chunk_count} /></dd>
        </div>
        <div>
          <dt><FormattedMessage id="sources.col.lastSync" /></dt>
          <dd><When at={s.last_synced_at} /></dd>
        </div>
        <div>
          <dt><FormattedMessage id="sources.detail.nextSync" /></dt>
          <dd>{s.sync_schedule === "never" ? <FormattedMessage id="sources.schedule.never" /> : <When at={s.next_sync_at} />}</dd>
        </div>
      </dl>

      {s.error && (
        <div className="ks-alert" role="alert">
          <FormattedMessage id="sources.detail.lastError" values={{ message: intl.formatMessage(errorMessage(new Error(s.error))) }} />
        </div>
      )}

      <section className="ks-card" aria-labelledby="current-job">
        <h2 id="current-job">
          <FormattedMessage id="sources.detail.currentJob" />
        </h2>
        {jobs.isPending ? (
          <Loading />
        ) : jobs.isError ? (
          <p className="ks-error" role="alert"><ErrorText error={jobs.error} /></p>
        ) : !job ? (
          <p className="ks-muted"><FormattedMessage id="sources.detail.noJobs" /></p>
        ) : (
          <div className="ks-form">
            <JobProgress job={job} />
            <div className="ks-head__actions">
              {active && (
                <Button size="sm" theme="gray" loading={cancel.isPending} disabled={job.cancel_requested} onClick={() => cancel.mutate({ jobId: job.id, sourceId: s.id })}>
                  <FormattedMessage id="sources.action.cancelJob" />
                </Button>
              )}
              {(job.status === "failed" || job.status === "cancelled") && (
                <Button size="sm" theme="secondary" loading={retry.isPending} onClick={() => retry.mutate({ jobId: job.id, sourceId: s.id })}>
                  <FormattedMessage id="sources.action.retry" />
                </Button>
              )}
            </div>
            {actionError && <p className="ks-error" role="alert"><ErrorText error={actionError} /></p>}
            {job.errors.length > 0 && (
              <>
                <h3><FormattedMessage id="sources.job.errors" /></h3>
                <JobErrors errors={job.errors} />
              </>
            )}
          </div>
        )}
      </section>

      <nav className="ks-head__actions" aria-label={intl.formatMessage({ id: "sources.detail.settings" })}>
        {(["content", "general", "syncing", ...(s.type === "web" ? ["scraping"] : []), "documents"] as const).map((tab) => (
          <LocalizedLink key={tab} className={buttonClassName({ size: "sm", theme: "transparent" })} to={settingsPath(botId, s.id, tab)}>
            <FormattedMessage id={`sources.tab.${tab}`} />
          </LocalizedLink>
        ))}
      </nav>

      <section className="ks-card" aria-labelledby="content-preview">
        <h2 id="content-preview">
          <FormattedMessage id="sources.detail.contentPreview" />
        </h2>
        <ContentTab source={s} />
      </section>
    </div>
  );
}
