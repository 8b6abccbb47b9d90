// Pieces of the tests screens: a run's status, its scores explained, an answer diff.
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import type { ScoreReason, TestRun, TestScore } from "../../data/tests/types";
import { diffWords } from "./diff";
import "./tests.css";

export function RunStatus({ run }: { run: Pick<TestRun, "status" | "progress_done" | "progress_total"> }) {
  const active = run.status === "queued" || run.status === "running";
  return (
    <span className={`tr-status tr-status--${run.status}`} data-status={run.status}>
      <FormattedMessage id={`tests.status.${run.status}`} />
      {active && run.progress_total > 0 && (
        <> · <FormattedMessage id="tests.progress" values={{ done: run.progress_done, total: run.progress_total }} /></>
      )}
    </span>
  );
}

export function PassBadge({ passed }: { passed: boolean }) {
  return (
    <span className={`tr-pass ${passed ? "tr-pass--yes" : "tr-pass--no"}`}>
      <FormattedMessage id={passed ? "tests.result.passed" : "tests.result.failed"} />
    </span>
  );
}

/**
 * A score's reasons in the reader's language; lists (phrases, sources, positions) as the language
 * lists them, and `count`, unless given, is the length of the list (for the plural).
 */
function Reasons({ reasons }: { reasons: ScoreReason[] }) {
  const intl = useIntl();
  return (
    <>
      {reasons.map((r, i) => {
        const list = Object.values(r.params).find(Array.isArray);
        const values = {
          count: list?.length ?? 0,
          ...Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, Array.isArray(v) ? intl.formatList(v) : v])),
        };
        return <span key={i}>{i > 0 && " "}{intl.formatMessage({ id: `tests.reason.${r.code}` }, values)}</span>;
      })}
    </>
  );
}

export function ScoreList({ scores }: { scores: TestScore[] }) {
  return (
    <ul className="tr-scores">
      {scores.map((s) => (
        <li key={s.name} className={s.applies ? (s.passed ? "tr-score--yes" : "tr-score--no") : "tr-score--info"} data-score={s.name}>
          <strong><FormattedMessage id={`tests.score.${s.name}`} /></strong>{" "}
          <FormattedNumber value={s.score} style="percent" />
          {!s.applies && <> (<FormattedMessage id="tests.score.informational" />)</>}
          <div className="tr-muted">{s.reasons.length ? <Reasons reasons={s.reasons} /> : s.explanation}</div>
          {s.reasoning && <blockquote className="tr-reasoning">{s.reasoning}</blockquote>}
        </li>
      ))}
    </ul>
  );
}

export function AnswerDiff({ before, after }: { before: string; after: string }) {
  const d = diffWords(before, after);
  return (
    <div className="tr-diff">
      <div>
        <h4><FormattedMessage id="tests.diff.previous" /></h4>
        <p>{d.before.map((p, i) => p.kind === "removed" ? <del key={i}>{p.text}</del> : <span key={i}>{p.text}</span>)}</p>
      </div>
      <div>
        <h4><FormattedMessage id="tests.diff.current" /></h4>
        <p>{d.after.map((p, i) => p.kind === "added" ? <ins key={i}>{p.text}</ins> : <span key={i}>{p.text}</span>)}</p>
      </div>
    </div>
  );
}
