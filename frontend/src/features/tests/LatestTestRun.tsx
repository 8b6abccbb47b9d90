// The bot overview's word on its tests: the newest finished run's result and its regressions
// (cases that passed in the run before and fail now), with links into the run.
import { FormattedDate, FormattedMessage, FormattedNumber } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { LocalizedLink } from "../../components/LocalizedLink";
import { Loading } from "../../components/ui";
import { useLatestFinishedTestRunQuery } from "../../data/tests/test-runs-query";
import { passRate } from "../../data/tests/types";
import "./tests.css";

export function LatestTestRun({ botId, className }: { botId: string; className?: string }) {
  const latest = useLatestFinishedTestRunQuery(botId);
  const run = latest.data;
  const runPath = run ? `/app/bots/${botId}/tests/${run.id}` : "";
  const rate = run ? passRate(run) : null;
  return (
    <section className={className} aria-labelledby="overview-tests" data-latest-run={run?.id ?? ""}>
      <h2 id="overview-tests"><FormattedMessage id="tests.overview.title" /></h2>
      {latest.isPending ? <Loading /> : latest.isError ? <ErrorNote error={latest.error} /> : !run ? (
        <p className="tr-muted"><FormattedMessage id="tests.overview.none" /></p>
      ) : (
        <div className="tr-form">
          <p className="tr-muted">
            <FormattedDate value={run.finished_at ?? run.created_at} dateStyle="medium" timeStyle="short" /> · <FormattedMessage id={`tests.trigger.${run.trigger}`} />
          </p>
          <p>
            <FormattedMessage id="tests.overview.result" values={{ passed: run.passed_count, total: run.passed_count + run.failed_count }} />
            {rate !== null && <> (<FormattedNumber value={rate / 100} style="percent" />)</>}
          </p>
          {run.regression_count > 0 ? (
            <p>
              <span className="tr-pass tr-pass--no" data-regressions={run.regression_count}>
                <FormattedMessage id="tests.run.regressionNote" values={{ count: run.regression_count }} />
              </span>{" "}
              <LocalizedLink to={`${runPath}?filter=new`}><FormattedMessage id="tests.overview.showRegressions" /></LocalizedLink>
            </p>
          ) : run.previous_run_id ? (
            <p className="tr-muted" data-regressions="0"><FormattedMessage id="tests.overview.noRegressions" /></p>
          ) : null}
          {run.fixed_count > 0 && <p className="tr-muted"><FormattedMessage id="tests.runs.fixed" values={{ count: run.fixed_count }} /></p>}
          <p><LocalizedLink to={runPath}><FormattedMessage id="tests.overview.openRun" /></LocalizedLink></p>
        </div>
      )}
      <p><LocalizedLink to={`/app/bots/${botId}/tests`}><FormattedMessage id="tests.overview.allRuns" /></LocalizedLink></p>
    </section>
  );
}
