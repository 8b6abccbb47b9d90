// /app/bots/:botId/tests — the bot's test runs: pass rate, trend, trigger, duration, live progress;
// below them the bot's test settings.
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams } from "react-router";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { ErrorNote } from "../../../components/ErrorNote";
import { Button, buttonClassName, EmptyState, Loading } from "../../../components/ui";
import { useCancelTestRunMutation, useStartTestRunMutation } from "../../../data/tests/test-run-mutations";
import { useTestRunsQuery } from "../../../data/tests/test-runs-query";
import { isActiveRun, passRate, runSeconds } from "../../../data/tests/types";
import { useLiveTestRuns } from "../../../data/tests/use-live-test-runs";
import { BarChart } from "../../../features/charts/BarChart";
import { RunStatus } from "../../../features/tests/parts";
import { TestSettingsSection } from "../../../features/tests/TestSettingsForm";

export default function TestRunsPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const runs = useTestRunsQuery(botId);
  useLiveTestRuns(botId);
  const start = useStartTestRunMutation(botId);
  const cancel = useCancelTestRunMutation(botId);
  const active = runs.data?.find(isActiveRun);
  const finished = (runs.data ?? []).filter((r) => r.status === "succeeded").slice(0, 20).reverse();
  const casesLink = (
    <LocalizedLink className={buttonClassName({ size: "sm", theme: "secondary" })} to={`/app/bots/${botId}/test-cases`}>
      <FormattedMessage id="tests.runs.cases" />
    </LocalizedLink>
  );
  return (
    <div className="tr-page">
      <header className="tr-head">
        <div>
          <h1><FormattedMessage id="tests.runs.title" /></h1>
          <p className="tr-muted"><FormattedMessage id="tests.runs.lead" /></p>
        </div>
        <div className="tr-actions">
          {casesLink}
          {active ? (
            <Button size="sm" theme="secondary" loading={cancel.isPending} onClick={() => cancel.mutate(active.id)}>
              <FormattedMessage id="tests.runs.cancel" />
            </Button>
          ) : (
            <Button size="sm" loading={start.isPending} onClick={() => start.mutate()}>
              <FormattedMessage id="tests.runs.start" />
            </Button>
          )}
        </div>
      </header>
      {start.error && <ErrorNote error={start.error} />}
      {cancel.error && <ErrorNote error={cancel.error} />}
      {runs.isPending ? (
        <Loading />
      ) : runs.isError ? (
        <ErrorNote error={runs.error} />
      ) : runs.data.length === 0 ? (
        <EmptyState title={<FormattedMessage id="tests.runs.empty.title" />} description={<FormattedMessage id="tests.runs.empty.text" />} action={casesLink} />
      ) : (
        <>
          {finished.length > 1 && (
            <BarChart
              title={t("tests.runs.trend")}
              labelHeader={t("tests.runs.col.started")}
              series={[{ key: "rate", name: t("tests.runs.col.passRate"), color: "var(--color-primary, #4f46e5)" }]}
              points={finished.map((r) => ({ label: intl.formatDate(r.created_at, { month: "short", day: "numeric" }), values: { rate: passRate(r) ?? 0 } }))}
            />
          )}
          <div className="tr-table-wrap" role="region" tabIndex={0} aria-label={t("tests.runs.title")}>
            <table className="tr-table">
              <thead>
                <tr>
                  <th scope="col"><FormattedMessage id="tests.runs.col.started" /></th>
                  <th scope="col"><FormattedMessage id="tests.runs.col.status" /></th>
                  <th scope="col"><FormattedMessage id="tests.runs.col.passRate" /></th>
                  <th scope="col"><FormattedMessage id="tests.runs.col.trigger" /></th>
                  <th scope="col"><FormattedMessage id="tests.runs.col.duration" /></th>
                  <th scope="col"><FormattedMessage id="tests.runs.col.changes" /></th>
                </tr>
              </thead>
              <tbody>
                {runs.data.map((r) => {
                  const rate = passRate(r);
                  const seconds = runSeconds(r);
                  return (
                    <tr key={r.id} data-run-id={r.id}>
                      <td>
                        <LocalizedLink to={`/app/bots/${botId}/tests/${r.id}`}>
                          <FormattedDate value={r.created_at} dateStyle="medium" timeStyle="short" />
                        </LocalizedLink>
                      </td>
                      <td><RunStatus run={r} /></td>
                      <td>{rate === null ? "–" : <FormattedNumber value={rate / 100} style="percent" />}</td>
                      <td><FormattedMessage id={`tests.trigger.${r.trigger}`} /></td>
                      <td>{seconds === null ? "–" : <FormattedMessage id="tests.runs.seconds" values={{ seconds }} />}</td>
                      <td>
                        {r.regression_count > 0 && <span className="tr-pass tr-pass--no"><FormattedMessage id="tests.runs.regressions" values={{ count: r.regression_count }} /></span>}{" "}
                        {r.fixed_count > 0 && <span className="tr-pass tr-pass--yes"><FormattedMessage id="tests.runs.fixed" values={{ count: r.fixed_count }} /></span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      <TestSettingsSection botId={botId} />
    </div>
  );
}
