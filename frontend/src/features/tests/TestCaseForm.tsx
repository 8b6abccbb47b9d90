// One test case, new or edited: the question and, optionally, the conversation before it; its
// language; what a good answer contains (expected answer, required and forbidden phrases,
// expected sources); tags. Lists are typed as "a | b".
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Select, Textarea } from "../../components/ui";
import { languageName } from "../../i18n/locales";
import { BOT_LANGUAGES } from "../../data/bots/types";
import { useSaveTestCaseMutation } from "../../data/tests/test-case-mutations";
import type { HistoryTurn, TestCase } from "../../data/tests/types";
import "./tests.css";

/** At most 20 earlier turns (the table's check). */
const MAX_TURNS = 20;
const splitList = (s: string) => s.split("|").map((x) => x.trim()).filter(Boolean);
const joinList = (list: string[]) => list.join(" | ");

export function TestCaseForm({ botId, initial, defaultLanguage, onSaved, onCancel }: {
  botId: string;
  /** The case being edited; none for a new one. */
  initial?: TestCase;
  defaultLanguage: string;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const save = useSaveTestCaseMutation(botId);
  const empty = () => ({
    question: initial?.question ?? "",
    expected: initial?.expected_answer ?? "",
    required: joinList(initial?.required_phrases ?? []),
    forbidden: joinList(initial?.forbidden_phrases ?? []),
    sources: joinList(initial?.expected_sources ?? []),
    tags: joinList(initial?.tags ?? []),
    language: initial?.language ?? defaultLanguage,
    history: initial?.history ?? ([] as HistoryTurn[]),
  });
  const [v, setV] = useState(empty);
  const set = (patch: Partial<ReturnType<typeof empty>>) => setV((old) => ({ ...old, ...patch }));
  const setTurn = (i: number, patch: Partial<HistoryTurn>) => set({ history: v.history.map((turn, j) => (j === i ? { ...turn, ...patch } : turn)) });
  const prefix = initial ? `tc-${initial.id}` : "tc-new";

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      {
        id: initial?.id,
        input: {
          question: v.question,
          expected_answer: v.expected,
          required_phrases: splitList(v.required),
          forbidden_phrases: splitList(v.forbidden),
          expected_sources: splitList(v.sources),
          tags: splitList(v.tags),
          language: v.language,
          history: v.history,
        },
      },
      {
        onSuccess: () => {
          if (!initial) setV({ ...empty(), language: v.language });
          onSaved?.();
        },
      },
    );
  };

  return (
    <form className="tr-form" onSubmit={onSubmit} data-case-form={initial?.id ?? "new"}>
      <fieldset className="tr-fieldset">
        <legend><FormattedMessage id="tests.cases.history" /></legend>
        <p className="tr-muted"><FormattedMessage id="tests.cases.history.hint" /></p>
        {v.history.map((turn, i) => (
          <div key={i} className="tr-turn" role="group" aria-label={intl.formatMessage({ id: "tests.cases.history.turn" }, { n: i + 1 })}>
            <Select label={t("tests.cases.history.role")} id={`${prefix}-role-${i}`} value={turn.role}
              onChange={(e) => setTurn(i, { role: e.target.value === "assistant" ? "assistant" : "user" })}
              options={[{ value: "user", label: t("tests.cases.history.user") }, { value: "assistant", label: t("tests.cases.history.assistant") }]} />
            <Textarea label={t("tests.cases.history.content")} id={`${prefix}-turn-${i}`} value={turn.content} rows={2} maxLength={4000}
              onChange={(e) => setTurn(i, { content: e.target.value })} />
            <div>
              <Button size="xs" theme="secondary" onClick={() => set({ history: v.history.filter((_, j) => j !== i) })}>
                <FormattedMessage id="tests.cases.history.remove" />
              </Button>
            </div>
          </div>
        ))}
        {v.history.length < MAX_TURNS && (
          <div>
            <Button size="xs" theme="secondary"
              onClick={() => set({ history: [...v.history, { role: v.history.at(-1)?.role === "user" ? "assistant" : "user", content: "" }] })}>
              <FormattedMessage id="tests.cases.history.add" />
            </Button>
          </div>
        )}
      </fieldset>
      <Textarea name="question" label={t("tests.cases.question")} required maxLength={4000} rows={2} value={v.question} onChange={(e) => set({ question: e.target.value })} />
      <Select name="language" label={t("tests.cases.language")} hint={t("tests.cases.language.hint")} value={v.language}
        onChange={(e) => set({ language: e.target.value })}
        options={BOT_LANGUAGES.map((l) => ({ value: l, label: languageName(l) }))} />
      <Textarea name="expected" label={t("tests.cases.expected")} maxLength={20000} rows={3} value={v.expected} onChange={(e) => set({ expected: e.target.value })} />
      <Input name="required" label={t("tests.cases.required")} hint={t("tests.cases.listHint")} value={v.required} onChange={(e) => set({ required: e.target.value })} />
      <Input name="forbidden" label={t("tests.cases.forbidden")} hint={t("tests.cases.listHint")} value={v.forbidden} onChange={(e) => set({ forbidden: e.target.value })} />
      <Input name="sources" label={t("tests.cases.sources")} hint={t("tests.cases.listHint")} value={v.sources} onChange={(e) => set({ sources: e.target.value })} />
      <Input name="tags" label={t("tests.cases.tags")} hint={t("tests.cases.listHint")} value={v.tags} onChange={(e) => set({ tags: e.target.value })} />
      {save.error && <ErrorNote error={save.error} />}
      <div className="tr-actions">
        <Button type="submit" loading={save.isPending}><FormattedMessage id={initial ? "tests.cases.update" : "tests.cases.save"} /></Button>
        {onCancel && <Button theme="secondary" onClick={onCancel}><FormattedMessage id="tests.cases.cancel" /></Button>}
      </div>
    </form>
  );
}
