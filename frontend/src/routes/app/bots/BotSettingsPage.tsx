// /app/bots/{botId}/settings: everything on the bot row, its avatar, the chat password and
// deletion. Team admins and owners may do all of it; RLS refuses anyone else.
import { useEffect, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { Button, buttonClassName, EmptyState, Input, Loading, Textarea } from "../../../components/ui";
import { useDeleteBotMutation } from "../../../data/bots/bot-delete-mutation";
import { useSetBotPasswordMutation } from "../../../data/bots/bot-password-mutation";
import { useUpdateBotMutation } from "../../../data/bots/bot-update-mutation";
import { useBotQuery } from "../../../data/bots/bot-query";
import type { Bot, BotVisibility } from "../../../data/bots/types";
import { AvatarPicker } from "../../../components/FilePicker";
import { BotAvatar } from "../../../features/bots/BotAvatar";
import { LanguageField, ModelFields, VisibilityField } from "../../../features/bots/BotFields";
import { SuggestedQuestionsEditor } from "../../../features/bots/SuggestedQuestionsEditor";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink, useLocalePath } from "../../../components/LocalizedLink";
import "../../../components/panels.css";

export default function BotSettingsPage() {
  const { botId = "" } = useParams();
  const bot = useBotQuery(botId);
  if (bot.isPending) return <Loading />;
  if (bot.isError) return <section className="page-section"><ErrorNote error={bot.error} /></section>;
  if (!bot.data) {
    return (
      <section className="page-section">
        <EmptyState
          title={<FormattedMessage id="bots.settings.notFound" />}
          action={<LocalizedLink className={buttonClassName({})} to="/app/bots"><FormattedMessage id="bots.settings.backToBots" /></LocalizedLink>}
        />
      </section>
    );
  }
  return <Settings key={bot.data.id} bot={bot.data} />;
}

function Settings({ bot }: { bot: Bot }) {
  return (
    <section className="page-section">
      <div className="page-head">
        <div style={{ display: "flex", gap: "1rem", alignItems: "center" }}>
          <BotAvatar name={bot.name} url={bot.avatar_url} large />
          <div>
            <h1><FormattedMessage id="bots.settings.title" values={{ name: bot.name }} /></h1>
            <p className="page-head__sub">
              <LocalizedLink to={`/app/bots/${bot.id}`}><FormattedMessage id="bots.settings.overview" /></LocalizedLink>
            </p>
          </div>
        </div>
      </div>
      <GeneralForm bot={bot} />
      <AvatarPanel bot={bot} />
      <AccessPanel bot={bot} />
      <DeletePanel bot={bot} />
    </section>
  );
}

function GeneralForm({ bot }: { bot: Bot }) {
  const intl = useIntl();
  const update = useUpdateBotMutation();
  const [f, setF] = useState({
    name: bot.name,
    description: bot.description ?? "",
    instructions: bot.instructions,
    language: bot.language,
    provider: bot.model_provider,
    model: bot.model ?? "",
    temperature: Number(bot.temperature),
    gallery_listed: bot.gallery_listed,
    show_powered_by: bot.show_powered_by,
    suggested: bot.suggested_questions,
    primary: bot.theme.primary ?? "#4f46e5",
    background: bot.theme.background ?? "#ffffff",
  });
  const [saved, setSaved] = useState(false);
  const set = (p: Partial<typeof f>) => {
    setSaved(false);
    setF((prev) => ({ ...prev, ...p }));
  };
  const nameInvalid = !f.name.trim() || f.name.trim().length > 100;
  const modelInvalid = f.provider !== "extractive" && !f.model.trim();
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="general-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (nameInvalid || modelInvalid) return;
        update.mutate(
          {
            botId: bot.id,
            patch: {
              name: f.name.trim(),
              description: f.description.trim() || null,
              instructions: f.instructions,
              language: f.language,
              model_provider: f.provider,
              model: f.provider === "extractive" ? null : f.model.trim(),
              temperature: f.temperature,
              gallery_listed: f.gallery_listed,
              show_powered_by: f.show_powered_by,
              suggested_questions: f.suggested.map((q) => q.trim()).filter(Boolean),
              theme: { ...bot.theme, primary: f.primary, background: f.background },
            },
          },
          { onSuccess: () => setSaved(true) },
        );
      }}
    >
      <h2 id="general-title"><FormattedMessage id="bots.settings.general" /></h2>
      <Input label={intl.formatMessage({ id: "bots.field.name" })} value={f.name} maxLength={100} onChange={(e) => set({ name: e.target.value })} error={nameInvalid ? intl.formatMessage({ id: "bots.wizard.nameRequired" }) : undefined} />
      <Textarea label={intl.formatMessage({ id: "bots.field.description" })} value={f.description} maxLength={1000} rows={2} onChange={(e) => set({ description: e.target.value })} />
      <Textarea label={intl.formatMessage({ id: "bots.field.instructions" })} hint={intl.formatMessage({ id: "bots.field.instructionsHint" })} value={f.instructions} maxLength={20000} rows={6} onChange={(e) => set({ instructions: e.target.value })} />
      <LanguageField value={f.language} onChange={(language) => set({ language })} />
      <ModelFields provider={f.provider} model={f.model} temperature={f.temperature} onChange={(v) => set({ ...(v.provider ? { provider: v.provider } : {}), ...(v.model !== undefined ? { model: v.model } : {}), ...(v.temperature !== undefined ? { temperature: v.temperature } : {}) })} modelError={modelInvalid ? intl.formatMessage({ id: "bots.wizard.modelRequired" }) : undefined} />
      <SuggestedQuestionsEditor value={f.suggested} onChange={(suggested) => set({ suggested })} />
      <label className="check-row">
        <input type="checkbox" checked={f.gallery_listed} onChange={(e) => set({ gallery_listed: e.target.checked })} />
        <FormattedMessage id="bots.settings.galleryListed" />
      </label>
      <label className="check-row">
        <input type="checkbox" checked={f.show_powered_by} onChange={(e) => set({ show_powered_by: e.target.checked })} />
        <FormattedMessage id="bots.settings.poweredBy" />
      </label>
      <fieldset className="color-row" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="field__label"><FormattedMessage id="bots.settings.theme" /></legend>
        <label><input type="color" value={f.primary} onChange={(e) => set({ primary: e.target.value })} /> <FormattedMessage id="bots.settings.themePrimary" /></label>
        <label><input type="color" value={f.background} onChange={(e) => set({ background: e.target.value })} /> <FormattedMessage id="bots.settings.themeBackground" /></label>
      </fieldset>
      <ErrorNote error={update.error} />
      {saved && <p className="form-success" role="status"><FormattedMessage id="teams.common.saved" /></p>}
      <div className="form-actions">
        <Button type="submit" loading={update.isPending}><FormattedMessage id="teams.common.save" /></Button>
      </div>
    </form>
  );
}

function AvatarPanel({ bot }: { bot: Bot }) {
  const intl = useIntl();
  const update = useUpdateBotMutation();
  const [error, setError] = useState<unknown>(null);
  return (
    <section className="panel" aria-labelledby="bot-avatar-title">
      <h2 id="bot-avatar-title"><FormattedMessage id="bots.settings.avatar" /></h2>
      <p className="panel__intro"><FormattedMessage id="account.avatar.rules" /></p>
      <div className="avatar-field">
        <BotAvatar name={bot.name} url={bot.avatar_url} large />
        <AvatarPicker
          kind={`bots/${bot.id}`}
          aria-label={intl.formatMessage({ id: "bots.settings.avatar" })}
          disabled={update.isPending}
          save={(url) => update.mutateAsync({ botId: bot.id, patch: { avatar_url: url } })}
          onError={setError}
        />
        {bot.avatar_url && (
          <Button size="sm" theme="gray" disabled={update.isPending} onClick={() => update.mutate({ botId: bot.id, patch: { avatar_url: null } })}>
            <FormattedMessage id="account.avatar.remove" />
          </Button>
        )}
      </div>
      <ErrorNote error={error ?? update.error} />
    </section>
  );
}

function AccessPanel({ bot }: { bot: Bot }) {
  const intl = useIntl();
  const update = useUpdateBotMutation();
  const setPassword = useSetBotPasswordMutation();
  const [visibility, setVisibility] = useState<BotVisibility>(bot.visibility);
  const [password, setPasswordText] = useState("");
  const [shown, setShown] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => setVisibility(bot.visibility), [bot.visibility]);
  const needsPassword = visibility === "password" && (bot.visibility !== "password" || password !== "");
  const passwordInvalid = needsPassword && (password.length < 4 || password.length > 128);
  const busy = update.isPending || setPassword.isPending;
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="access-title"
      onSubmit={(e) => {
        e.preventDefault();
        setShown(true);
        setSaved(false);
        if (passwordInvalid) return;
        const done = { onSuccess: () => { setSaved(true); setPasswordText(""); setShown(false); } };
        if (visibility === "password") {
          if (needsPassword) setPassword.mutate({ botId: bot.id, password }, done);
          else setSaved(true);
        } else update.mutate({ botId: bot.id, patch: { visibility } }, done);
      }}
    >
      <h2 id="access-title"><FormattedMessage id="bots.settings.access" /></h2>
      <VisibilityField value={visibility} onChange={(v) => { setSaved(false); setVisibility(v); }} />
      {visibility === "password" && (
        <Input
          type="password"
          autoComplete="new-password"
          label={intl.formatMessage({ id: bot.visibility === "password" ? "bots.settings.passwordChange" : "bots.field.password" })}
          hint={intl.formatMessage({ id: bot.visibility === "password" ? "bots.settings.passwordKeep" : "bots.field.passwordLength" })}
          value={password}
          onChange={(e) => setPasswordText(e.target.value)}
          error={shown && passwordInvalid ? intl.formatMessage({ id: "bots.field.passwordLength" }) : undefined}
        />
      )}
      <ErrorNote error={update.error ?? setPassword.error} />
      {saved && <p className="form-success" role="status"><FormattedMessage id="teams.common.saved" /></p>}
      <div className="form-actions">
        <Button type="submit" loading={busy}><FormattedMessage id="bots.settings.saveAccess" /></Button>
        {bot.visibility === "password" && (
          <Button theme="gray" disabled={busy} onClick={() => setPassword.mutate({ botId: bot.id, password: null }, { onSuccess: () => setSaved(true) })}>
            <FormattedMessage id="bots.settings.passwordRemove" />
          </Button>
        )}
      </div>
    </form>
  );
}

function DeletePanel({ bot }: { bot: Bot }) {
  const del = useDeleteBotMutation();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [open, setOpen] = useState(false);
  return (
    <section className="panel panel--danger" aria-labelledby="delete-bot-title">
      <h2 id="delete-bot-title"><FormattedMessage id="bots.delete.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="bots.delete.intro" /></p>
      <Button theme="delete" onClick={() => setOpen(true)}><FormattedMessage id="bots.delete.action" /></Button>
      <ConfirmDialog
        open={open}
        typed={bot.name}
        title={<FormattedMessage id="bots.delete.title" />}
        body={<FormattedMessage id="bots.delete.confirm" values={{ name: bot.name }} />}
        confirmLabel={<FormattedMessage id="bots.delete.action" />}
        busy={del.isPending}
        error={<ErrorNote error={del.error} />}
        onConfirm={() => del.mutate(bot.id, { onSuccess: () => navigate(lp("/app/bots")) })}
        onClose={() => { del.reset(); setOpen(false); }}
      />
    </section>
  );
}
