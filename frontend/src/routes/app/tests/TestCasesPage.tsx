// /app/bots/:botId/test-cases — the suite: search, tags, bulk edit, CSV import/export, a new
// case by hand, a case edited in place, and suggestions from the bot's knowledge to accept or discard.
import { Fragment, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { Button, EmptyState, Input, Loading } from "../../../components/ui";
import { useBotQuery } from "../../../data/bots/bot-query";
import { useBulkEditTestCasesMutation, type BulkAction } from "../../../data/tests/test-case-mutations";
import { useTestCasesQuery } from "../../../data/tests/test-cases-query";
import { exportTestCases, useImportTestCasesMutation, useSuggestTestCasesMutation } from "../../../data/tests/test-run-mutations";
import type { TestCase } from "../../../data/tests/types";
import { TestCaseForm } from "../../../features/tests/TestCaseForm";
import "../../../features/tests/tests.css";

export default function TestCasesPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const cases = useTestCasesQuery(botId);
  const bot = useBotQuery(botId);
  const bulk = useBulkEditTestCasesMutation(botId);
  const suggest = useSuggestTestCasesMutation(botId);
  const importer = useImportTestCasesMutation(botId);
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [tag, setTag] = useState("");
  const [exportError, setExportError] = useState<unknown>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const botLanguage = bot.data?.language ?? "en";

  const all = cases.data ?? [];
  const active = useMemo(() => {
    const q = search.trim().toLowerCase();
    return all.filter((c) => c.status === "active" && (!q || c.question.toLowerCase().includes(q) || c.tags.some((x) => x.toLowerCase().includes(q))));
  }, [all, search]);
  const suggested = all.filter((c) => c.status === "suggested");
  const chosen = all.filter((c) => selected.has(c.id));
  const toggle = (id: string) => setSelected((s) => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; });
  const runBulk = (action: BulkAction, list: TestCase[] = chosen) => bulk.mutate({ cases: list, action }, { onSuccess: () => setSelected(new Set()) });

  const onImport = async (file: File | undefined) => {
    if (file) importer.mutate(await file.text());
  };
  const onExport = async () => {
    setExportError(null);
    try {
      const url = URL.createObjectURL(await exportTestCases(botId));
      const a = document.createElement("a");
      a.href = url;
      a.download = "test-cases.csv";
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      setExportError(e);
    }
  };

  return (
    <div className="tr-page">
      <header className="tr-head">
        <div>
          <h1><FormattedMessage id="tests.cases.title" /></h1>
          <p className="tr-muted"><FormattedMessage id="tests.cases.lead" /></p>
        </div>
        <div className="tr-actions">
          <LocalizedLink to={`/app/bots/${botId}/tests`}><FormattedMessage id="tests.cases.runs" /></LocalizedLink>
          <Button size="sm" theme="secondary" loading={suggest.isPending} onClick={() => suggest.mutate()}><FormattedMessage id="tests.cases.suggest" /></Button>
          <Button size="sm" theme="secondary" onClick={onExport}><FormattedMessage id="tests.cases.export" /></Button>
          <label className="btn btn--sm btn--secondary">
            <FormattedMessage id="tests.cases.import" />
            <input type="file" accept=".csv,text/csv" className="sr-only" onChange={(e) => void onImport(e.target.files?.[0])} />
          </label>
        </div>
      </header>
      {[suggest.error, importer.error, bulk.error, exportError].map((err, i) => err ? <ErrorNote key={i} error={err} /> : null)}
      {suggest.data && <p role="status"><FormattedMessage id="tests.cases.suggested" values={{ count: suggest.data.created }} /></p>}
      {importer.data && (
        <div role="status">
          <FormattedMessage id="tests.cases.imported" values={{ count: importer.data.created }} />
          {importer.data.errors.length > 0 && <ul className="tr-muted">{importer.data.errors.map((er) => <li key={er.row}><FormattedMessage id="tests.cases.importRow" values={{ row: er.row }} /> {er.message}</li>)}</ul>}
        </div>
      )}

      {suggested.length > 0 && (
        <section aria-labelledby="tr-suggestions">
          <h2 id="tr-suggestions"><FormattedMessage id="tests.cases.suggestions" /></h2>
          <ul className="tr-scores">
            {suggested.map((c) => (
              <li key={c.id} data-suggestion={c.question}>
                {c.question}{" "}
                <Button size="xxs" onClick={() => runBulk({ kind: "accept" }, [c])}><FormattedMessage id="tests.cases.accept" /></Button>{" "}
                <Button size="xxs" theme="secondary" onClick={() => runBulk({ kind: "delete" }, [c])}><FormattedMessage id="tests.cases.discard" /></Button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <Input label={t("tests.cases.search")} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
      {chosen.length > 0 && (
        <div className="tr-actions" role="group" aria-label={t("tests.cases.bulk", { count: chosen.length })}>
          <span><FormattedMessage id="tests.cases.bulk" values={{ count: chosen.length }} /></span>
          <Input label={t("tests.cases.tag")} hideLabel placeholder={t("tests.cases.tag")} value={tag} onChange={(e) => setTag(e.target.value)} />
          <Button size="xs" disabled={!tag.trim()} onClick={() => runBulk({ kind: "addTag", tag: tag.trim() })}><FormattedMessage id="tests.cases.addTag" /></Button>
          <Button size="xs" theme="secondary" disabled={!tag.trim()} onClick={() => runBulk({ kind: "removeTag", tag: tag.trim() })}><FormattedMessage id="tests.cases.removeTag" /></Button>
          <Button size="xs" theme="delete" onClick={() => runBulk({ kind: "delete" })}><FormattedMessage id="tests.cases.delete" /></Button>
        </div>
      )}
      {cases.isPending ? <Loading /> : cases.isError ? <ErrorNote error={cases.error} /> : active.length === 0 ? (
        <EmptyState title={<FormattedMessage id="tests.cases.empty.title" />} description={<FormattedMessage id="tests.cases.empty.text" />} />
      ) : (
        <div className="tr-table-wrap" role="region" tabIndex={0} aria-label={t("tests.cases.title")}>
          <table className="tr-table">
            <thead>
              <tr>
                <th scope="col"><span className="sr-only"><FormattedMessage id="tests.cases.select" /></span></th>
                <th scope="col"><FormattedMessage id="tests.cases.question" /></th>
                <th scope="col"><FormattedMessage id="tests.cases.expected" /></th>
                <th scope="col"><FormattedMessage id="tests.cases.tags" /></th>
                <th scope="col"><span className="sr-only"><FormattedMessage id="tests.cases.actions" /></span></th>
              </tr>
            </thead>
            <tbody>
              {active.map((c) => (
                <Fragment key={c.id}>
                  <tr data-case-id={c.id}>
                    <td><input type="checkbox" checked={selected.has(c.id)} onChange={() => toggle(c.id)} aria-label={t("tests.cases.selectOne", { question: c.question })} /></td>
                    <td>{c.question}</td>
                    <td className="tr-muted">{c.expected_answer}{c.required_phrases.length > 0 && <div>+ {c.required_phrases.join(", ")}</div>}</td>
                    <td>{c.tags.map((x) => <span key={x} className="tr-tag">{x}</span>)}</td>
                    <td>
                      <Button size="xxs" theme="secondary" aria-expanded={editing === c.id} aria-label={t("tests.cases.editOne", { question: c.question })}
                        onClick={() => setEditing(editing === c.id ? null : c.id)}>
                        <FormattedMessage id="tests.cases.edit" />
                      </Button>
                    </td>
                  </tr>
                  {editing === c.id && (
                    <tr>
                      <td colSpan={5}>
                        <TestCaseForm botId={botId} initial={c} defaultLanguage={botLanguage} onSaved={() => setEditing(null)} onCancel={() => setEditing(null)} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <section aria-labelledby="tr-new">
        <h2 id="tr-new"><FormattedMessage id="tests.cases.new" /></h2>
        {/* Keyed by the bot's language, which a new case starts in once the bot has loaded. */}
        <TestCaseForm key={botLanguage} botId={botId} defaultLanguage={botLanguage} />
      </section>
    </div>
  );
}
