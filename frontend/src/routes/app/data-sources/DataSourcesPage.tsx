// /app/bots/:botId/data-sources — the bot's data sources with live sync progress.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams } from "react-router";
import { buttonClassName, EmptyState, Loading } from "../../../components/ui";
import { useDataSourcesQuery } from "../../../data/dataSources/data-sources-query";
import { useBotJobsQuery } from "../../../data/ingestionJobs/ingestion-jobs-query";
import { isActiveJob, latestJobBySource } from "../../../data/ingestionJobs/types";
import { useLiveJobs } from "../../../data/ingestionJobs/use-live-jobs";
import { useStaleSourceCheck } from "../../../data/ingestionJobs/use-stale-source-check";
import { ErrorText, SourceTypeIcon, StatusBadge, When } from "../../../features/knowledge/badges";
import { JobProgress } from "../../../features/knowledge/JobProgress";
import { sourcePath, SourcesCrumbs, SyncNowButton } from "../../../features/knowledge/SourceParts";
import { LocalizedLink } from "../../../components/LocalizedLink";
import "../../../features/knowledge/knowledge.css";

export default function DataSourcesPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const sources = useDataSourcesQuery(botId);
  const jobs = useBotJobsQuery(botId);
  useLiveJobs(botId);
  const latest = latestJobBySource(jobs.data ?? []);
  useStaleSourceCheck(sources.data ?? [], (id) => latest.get(id));
  const addLink = (
    <LocalizedLink className={buttonClassName({ size: "sm" })} to={`/app/bots/${botId}/data-sources/new`}>
      <FormattedMessage id="sources.list.add" />
    </LocalizedLink>
  );
  return (
    <div className="ks-page">
      <SourcesCrumbs botId={botId} />
      <header className="ks-head">
        <div>
          <h1>
            <FormattedMessage id="sources.list.title" />
          </h1>
          <p className="ks-muted">
            <FormattedMessage id="sources.list.lead" />
          </p>
        </div>
        {sources.data && sources.data.length > 0 && addLink}
      </header>
      {sources.isPending ? (
        <Loading />
      ) : sources.isError ? (
        <div className="ks-alert" role="alert">
          <ErrorText error={sources.error} />
        </div>
      ) : sources.data.length === 0 ? (
        <EmptyState title={<FormattedMessage id="sources.list.empty.title" />} description={<FormattedMessage id="sources.list.empty.text" />} action={addLink} />
      ) : (
        // On a narrow screen the table scrolls sideways in this region: focusable so the
        // keyboard can scroll it, named after the table.
        <div className="ks-table-wrap" role="region" tabIndex={0} aria-label={intl.formatMessage({ id: "sources.list.title" })}>
          <table className="ks-table">
            <caption className="sr-only">{intl.formatMessage({ id: "sources.list.title" })}</caption>
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="sources.col.name" /></th>
                <th scope="col"><FormattedMessage id="sources.col.status" /></th>
                <th scope="col"><FormattedMessage id="sources.col.documents" /></th>
                <th scope="col"><FormattedMessage id="sources.col.chunks" /></th>
                <th scope="col"><FormattedMessage id="sources.col.lastSync" /></th>
                <th scope="col"><FormattedMessage id="sources.col.progress" /></th>
                <th scope="col"><span className="sr-only"><FormattedMessage id="sources.col.actions" /></span></th>
              </tr>
            </thead>
            <tbody>
              {sources.data.map((s) => {
                const job = latest.get(s.id);
                const active = isActiveJob(job);
                return (
                  <tr key={s.id} data-source-id={s.id}>
                    <td>
                      <span className="ks-table__name">
                        <SourceTypeIcon type={s.type} />
                        <LocalizedLink to={sourcePath(botId, s.id)}>{s.name}</LocalizedLink>
                      </span>
                    </td>
                    <td><StatusBadge status={active ? job!.status === "queued" ? "queued" : "running" : s.status} /></td>
                    <td className="ks-table__num"><FormattedNumber value={s.document_count} /></td>
                    <td className="ks-table__num"><FormattedNumber value={s.chunk_count} /></td>
                    <td><When at={s.last_synced_at} /></td>
                    <td>{job ? <JobProgress job={job} compact /> : <span className="ks-muted">–</span>}</td>
                    <td><SyncNowButton source={s} size="xs" busyJob={active} /></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
