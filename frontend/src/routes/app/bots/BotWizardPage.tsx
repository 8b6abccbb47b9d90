// /app/bots/wizard: create a bot step by step (name and purpose, language, model, visibility,
// first data source), then go to its overview.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { Button, Input, Loading, Textarea } from "../../../components/ui";
import { useCreateBotMutation } from "../../../data/bots/bot-create-mutation";
import type { BotLanguage, BotVisibility, ModelProvider } from "../../../data/bots/types";
import { LanguageField, ModelFields, VisibilityField } from "../../../features/bots/BotFields";
import { useCurrentTeam } from "../../../features/teams/currentTeam";
import { ErrorNote } from "../../../components/ErrorNote";
import { TeamSwitcher } from "../../../features/teams/TeamSwitcher";
import { useLocale, useLocalePath } from "../../../components/LocalizedLink";
import { isLocaleCode } from "../../../i18n/locales";
import "../../../components/panels.css";

const STEPS = ["purpose", "language", "model", "visibility", "data"] as const;
type Step = (typeof STEPS)[number];

export interface WizardState {
  name: string;
  description: string;
  instructions: string;
  language: BotLanguage;
  provider: ModelProvider;
  model: string;
  visibility: BotVisibility;
  password: string;
  addSource: boolean;
}

/** The message id of the first problem on a step, or null. */
export function stepProblem(step: Step, s: WizardState): string | null {
  if (step === "purpose") {
    if (!s.name.trim()) return "bots.wizard.nameRequired";
    if (s.name.trim().length > 100) return "bots.wizard.nameTooLong";
    if (s.description.length > 1000) return "bots.wizard.descriptionTooLong";
  }
  if (step === "model" && s.provider !== "extractive" && !s.model.trim()) return "bots.wizard.modelRequired";
  if (step === "visibility" && s.visibility === "password" && (s.password.length < 4 || s.password.length > 128)) return "bots.field.passwordLength";
  return null;
}

export default function BotWizardPage() {
  const intl = useIntl();
  const locale = useLocale();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const { teams, team } = useCurrentTeam();
  const create = useCreateBotMutation();
  const [index, setIndex] = useState(0);
  const [shown, setShown] = useState<string | null>(null);
  const [s, setS] = useState<WizardState>({
    name: "",
    description: "",
    instructions: "",
    language: isLocaleCode(locale) ? (locale as BotLanguage) : "en",
    provider: "extractive",
    model: "",
    visibility: "private",
    password: "",
    addSource: false,
  });
  const step = STEPS[index]!;
  const patch = (p: Partial<WizardState>) => {
    setShown(null);
    setS((prev) => ({ ...prev, ...p }));
  };
  const err = (id: string) => (shown === id ? intl.formatMessage({ id }) : undefined);

  const next = () => {
    const problem = stepProblem(step, s);
    if (problem) return setShown(problem);
    if (index < STEPS.length - 1) return setIndex(index + 1);
    if (!team) return;
    create.mutate(
      {
        input: {
          team_id: team.id,
          name: s.name.trim(),
          description: s.description.trim() || null,
          instructions: s.instructions,
          language: s.language,
          model_provider: s.provider,
          model: s.provider === "extractive" ? null : s.model.trim(),
          visibility: s.visibility,
        },
        password: s.visibility === "password" ? s.password : undefined,
      },
      { onSuccess: (bot) => navigate(lp(s.addSource ? `/app/bots/${bot.id}/data-sources/new` : `/app/bots/${bot.id}`)) },
    );
  };

  if (teams.isPending) return <Loading />;
  if (teams.isError) return <div className="wizard"><ErrorNote error={teams.error} /></div>;

  return (
    <div className="wizard">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="bots.wizard.title" /></h1>
          <p className="page-head__sub"><FormattedMessage id="bots.wizard.intro" /></p>
        </div>
        <TeamSwitcher showManage={false} />
      </div>
      <ol className="wizard__steps">
        {STEPS.map((st, i) => (
          <li key={st} className={`wizard__step${i < index ? " wizard__step--done" : ""}${i === index ? " wizard__step--current" : ""}`} aria-current={i === index ? "step" : undefined}>
            {i + 1}. <FormattedMessage id={`bots.wizard.step.${st}`} />
          </li>
        ))}
      </ol>
      <form
        className="panel form-stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          next();
        }}
      >
        <h2><FormattedMessage id={`bots.wizard.step.${step}`} /></h2>
        {step === "purpose" && (
          <>
            <Input label={intl.formatMessage({ id: "bots.field.name" })} value={s.name} maxLength={100} autoFocus onChange={(e) => patch({ name: e.target.value })} error={err("bots.wizard.nameRequired") ?? err("bots.wizard.nameTooLong")} />
            <Textarea label={intl.formatMessage({ id: "bots.field.description" })} hint={intl.formatMessage({ id: "bots.field.descriptionHint" })} value={s.description} maxLength={1000} rows={2} onChange={(e) => patch({ description: e.target.value })} error={err("bots.wizard.descriptionTooLong")} />
            <Textarea label={intl.formatMessage({ id: "bots.field.instructions" })} hint={intl.formatMessage({ id: "bots.field.instructionsHint" })} value={s.instructions} maxLength={20000} rows={5} onChange={(e) => patch({ instructions: e.target.value })} />
          </>
        )}
        {step === "language" && <LanguageField value={s.language} onChange={(language) => patch({ language })} />}
        {step === "model" && <ModelFields provider={s.provider} model={s.model} onChange={(v) => patch({ ...(v.provider ? { provider: v.provider } : {}), ...(v.model !== undefined ? { model: v.model } : {}) })} modelError={err("bots.wizard.modelRequired")} />}
        {step === "visibility" && (
          <>
            <VisibilityField value={s.visibility} onChange={(visibility) => patch({ visibility })} />
            {s.visibility === "password" && (
              <Input type="password" autoComplete="new-password" label={intl.formatMessage({ id: "bots.field.password" })} value={s.password} onChange={(e) => patch({ password: e.target.value })} error={err("bots.field.passwordLength")} hint={intl.formatMessage({ id: "bots.field.passwordLength" })} />
            )}
          </>
        )}
        {step === "data" && (
          <>
            <p className="form-note"><FormattedMessage id="bots.wizard.dataIntro" /></p>
            <label className="check-row">
              <input type="checkbox" checked={s.addSource} onChange={(e) => patch({ addSource: e.target.checked })} />
              <FormattedMessage id="bots.wizard.addSource" />
            </label>
          </>
        )}
        {!team && <ErrorNote error={{ message: "", code: "no_team" }} />}
        <ErrorNote error={create.error} />
        <div className="wizard__nav">
          <Button theme="gray" disabled={index === 0} onClick={() => { setShown(null); setIndex(index - 1); }}>
            <FormattedMessage id="bots.wizard.back" />
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!team && index === STEPS.length - 1}>
            <FormattedMessage id={index === STEPS.length - 1 ? "bots.wizard.create" : "bots.wizard.next"} />
          </Button>
        </div>
      </form>
    </div>
  );
}
