// One plan's form: names in the ten languages, order, limits (empty = unlimited) and flags.
// Saves only what changed through admin_update_plan; other columns are shown read-only.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input, Select } from "../../components/ui";
import { useUpdatePlanMutation } from "../../data/adminDashboard/plan-update-mutation";
import type { PlanRow } from "../../data/adminDashboard/plans-query";
import { LOCALES } from "../../i18n/locales";
import { idPart } from "./period";
import { changesOf, FLAG_COLUMNS, LIMIT_COLUMNS, NUMBER_COLUMNS, otherColumns, toForm, type FormProblem } from "./planForm";

export function PlanEditor({ plan }: { plan: PlanRow }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [form, setForm] = useState(() => toForm(plan));
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [saved, setSaved] = useState<"saved" | "unchanged" | null>(null);
  const update = useUpdatePlanMutation({ onSuccess: (row) => { setForm(toForm(row)); setSaved("saved"); } });
  const field = (name: string) => ({
    name,
    value: form[name] ?? "",
    error: problem?.field === name ? t(problem.id) : undefined,
    onChange: (e: { target: { value: string } }) => { setSaved(null); setForm((f) => ({ ...f, [name]: e.target.value })); },
  });
  const code = LOCALES.find((l) => l.lang === intl.locale)?.code ?? "en";
  const title = (plan.name as Record<string, string> | null)?.[code] ?? plan.id;

  function submit(e: FormEvent) {
    e.preventDefault();
    const { changes, problem: p } = changesOf(plan, form);
    setProblem(p);
    if (p) return;
    if (!Object.keys(changes).length) { setSaved("unchanged"); return; }
    update.mutate({ planId: plan.id, changes });
  }

  const flagOptions = [
    { value: "", label: t("adminDashboard.plans.flagUnset") },
    { value: "true", label: t("adminDashboard.plans.flagYes") },
    { value: "false", label: t("adminDashboard.plans.flagNo") },
  ];
  const others = otherColumns(plan);
  const headingId = `plan-${plan.id}`;
  return (
    <section className="admin-plan" aria-labelledby={headingId}>
      <h2 id={headingId}>{title} <code>{plan.id}</code></h2>
      <form onSubmit={submit} noValidate aria-labelledby={headingId}>
        <fieldset>
          <legend><FormattedMessage id="adminDashboard.plans.names" /></legend>
          <div className="admin-plan__grid">
            {LOCALES.map((l) => <Input key={l.code} label={l.name} lang={l.lang} {...field(`name.${l.code}`)} />)}
          </div>
        </fieldset>
        <fieldset>
          <legend><FormattedMessage id="adminDashboard.plans.limits" /></legend>
          <p className="form-note"><FormattedMessage id="adminDashboard.plans.limitsHint" /></p>
          <div className="admin-plan__grid">
            {[...NUMBER_COLUMNS, ...LIMIT_COLUMNS].map((c) => (
              <Input key={c} type="number" inputMode="numeric" step={1} label={t(`adminDashboard.plans.column.${idPart(c)}`)} {...field(c)} />
            ))}
            {FLAG_COLUMNS.map((c) => <Select key={c} label={t(`adminDashboard.plans.column.${idPart(c)}`)} options={flagOptions} {...field(c)} />)}
          </div>
        </fieldset>
        {others.length > 0 && (
          <dl className="admin-plan__grid" aria-label={t("adminDashboard.plans.other")}>
            {others.map(([k, v]) => (
              <div key={k}><dt><code>{k}</code></dt><dd>{v === null ? "—" : typeof v === "object" ? JSON.stringify(v) : String(v)}</dd></div>
            ))}
          </dl>
        )}
        <div className="admin-plan__actions">
          <Button type="submit" loading={update.isPending}><FormattedMessage id="adminDashboard.plans.save" /></Button>
          <span role="status">{saved && <FormattedMessage id={saved === "saved" ? "adminDashboard.plans.saved" : "adminDashboard.plans.unchanged"} />}</span>
        </div>
        {update.isError && <ErrorNote error={update.error} />}
      </form>
    </section>
  );
}
