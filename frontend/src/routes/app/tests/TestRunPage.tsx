// /app/bots/:botId/tests/:testRunId — every case of a run with its answer, sources and scores;
// filters (failed, new failures, fixed since the previous run) and a diff against the previous answer.
import { useState } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams, useSearchParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { Button, Loading } from "../../../components/ui";
import { useCancelTestRunMutation } from "../../../data/tests/test-run-mutations";
import { useTestResultsQuery, useTestRunQuery } from "../../../data/tests/test-runs-query";
import { isActiveRun, passRate, type TestResult } from "../../../data/tests/types";
import { useLiveTestRuns } from "../../../data/tests/use-live-test-runs";
import { AnswerDiff, PassBadge, RunStatus, ScoreList } from "../../../features/tests/parts";

const FILTERS = ["all", "failed", "new", "fixed"] as const;
type Filter = (typeof FILTERS)[number];
/** `?filter=new` (the bot overview's link to a run's regressions) opens the run so filtered. */
const readFilter = (v: string | null): Filter => FILTERS.find((f) => f === v) ?? "all";

export default function TestRunPage() {
  const { botId = "", testRunId = "" } = useParams();
  const intl = useIntl();
  const run = useTestRunQuery(testRunId);
  const results = useTestResultsQuery(testRunId);
  const previous = useTestResultsQuery(run.data?.previous_run_id);
  const cancel = useCancelTestRunMutation(botId);
  useLiveTestRuns(botId);
  const [params] = useSearchParams();
  const [filter, setFilter] = useState<Filter>(() => readFilter(params.get("filter")));
  const [diffFor, setDiffFor] = useState<string | null>(null);

  if (run.isPending) return <Loading />;
  if (run.isError) return <ErrorNote error={run.error} />;
  if (!run.data) return <p><FormattedMessage id="tests.run.notFound" /></p>;
  const r = run.data;
  const before = new Map((previous.data ?? []).map((p) => [p.case_id, p]));
  const isNew = (x: TestResult) => !x.passed && before.get(x.case_id)?.passed === true;
  const isFixed = (x: TestResult) => x.passed && before.get(x.case_id)?.passed === false;
  const shown = (results.data ?? []).filter((x) => filter === "all" || (filter === "failed" && !x.passed) || (filter === "new" && isNew(x)) || (filter === "fixed" && isFixed(x)));
  const rate = passRate(r);

  return (
    <div className="tr-page">
      <header className="tr-head">
        <div>
          <p><LocalizedLink to={`/app/bots/${botId}/tests`}><FormattedMessage id="tests.run.back" /></LocalizedLink></p>
          <h1><FormattedMessage id="tests.run.title" /></h1>
          <p className="tr-muted">
            <RunStatus run={r} /> · <FormattedMessage id={`tests.trigger.${r.trigger}`} />
            {rate !== null && <> · <FormattedMessage id="tests.run.passRate" values={{ rate: intl.formatNumber(rate / 100, { style: "percent" }) }} /></>}
            {r.snapshot.provider && <> · <FormattedMessage id="tests.run.snapshot" values={{ provider: r.snapshot.provider, model: r.snapshot.model ?? "–", documents: r.snapshot.documents ?? 0 }} /></>}
          </p>
        </div>
        {isActiveRun(r) && (
          <Button size="sm" theme="secondary" loading={cancel.isPending} onClick={() => cancel.mutate(r.id)}>
            <FormattedMessage id="tests.runs.cancel" />
          </Button>
        )}
      </header>
      {r.regression_count > 0 && (
        <div className="error-note" role="alert"><FormattedMessage id="tests.run.regressionNote" values={{ count: r.regression_count }} /></div>
      )}
      <div className="tr-filters" role="group" aria-label={intl.formatMessage({ id: "tests.filter.label" })}>
        {FILTERS.map((f) => (
          <Button key={f} size="xs" theme={filter === f ? "primary" : "secondary"} aria-pressed={filter === f} onClick={() => setFilter(f)}>
            <FormattedMessage id={`tests.filter.${f}`} />
          </Button>
        ))}
      </div>
      {results.isPending ? <Loading /> : results.isError ? <ErrorNote error={results.error} /> : shown.length === 0 ? (
        <p className="tr-muted"><FormattedMessage id="tests.run.none" /></p>
      ) : (
        shown.map((x) => {
          const prev = before.get(x.case_id);
          return (
            <article key={x.id} className="tr-case" data-case-id={x.case_id ?? ""} data-passed={x.passed}>
              <div className="tr-head">
                <h2 style={{ fontSize: "1rem", margin: 0 }}>{x.question}</h2>
                <span>
                  <PassBadge passed={x.passed} />{" "}
                  {isNew(x) && <span className="tr-pass tr-pass--no"><FormattedMessage id="tests.filter.new" /></span>}
                  {isFixed(x) && <span className="tr-pass tr-pass--yes"><FormattedMessage id="tests.filter.fixed" /></span>}
                </span>
              </div>
              {x.error && <p className="tr-muted">{x.error}</p>}
              <p className="tr-answer">{x.answer}</p>
              {x.sources.length > 0 && (
                <ol className="tr-muted">
                  {x.sources.map((s, i) => <li key={i}>{s.url ? <a href={s.url} target="_blank" rel="noreferrer noopener">{s.title || s.url}</a> : s.title}</li>)}
                </ol>
              )}
              <ScoreList scores={x.scores} />
              {x.latency_ms !== null && <p className="tr-muted"><FormattedMessage id="tests.run.latency" values={{ ms: <FormattedNumber key="ms" value={x.latency_ms} /> }} /></p>}
              {prev && prev.answer !== x.answer && (
                <div>
                  <Button size="xs" theme="secondary" aria-expanded={diffFor === x.id} onClick={() => setDiffFor(diffFor === x.id ? null : x.id)}>
                    <FormattedMessage id="tests.diff.toggle" />
                  </Button>
                  {diffFor === x.id && <AnswerDiff before={prev.answer} after={x.answer} />}
                </div>
              )}
            </article>
          );
        })
      )}
    </div>
  );
}
