// /app/auth/register: display name, email, password, preferred language (user metadata
// `locale`, so auth emails come in it). Then "check your inbox", or straight on when the
// project does not require confirmation.
import { EmailCodeForm } from "../../features/auth/EmailCodeForm";
import { isExistingAccountAnswer, sendAccountNotice } from "../../data/auth/account-notice";
import { useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useSearchParams } from "react-router";
import { Button, Input, Select } from "../../components/ui";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import {
  AuthCard,
  FailureText,
  FormAlert,
  PasswordField,
  focusFirstInvalid,
  useFieldError,
} from "../../features/auth/ui";
import { useAuthDeps } from "../../features/auth/deps";
import { useSiteUrl } from "../../features/auth/useAuthClient";
import { defaultAfterLogin, safeRedirect } from "../../lib/redirect";
import { toFailure, type AuthFailure } from "../../features/auth/errors";
import { checkEmail, checkName, checkPassword, type FieldError } from "../../features/auth/validation";
import { minPasswordLength, useAuthSettingsQuery } from "../../data/auth/auth-settings-query";
import { LOCALES, isLocaleCode, type LocaleCode } from "../../i18n/locales";

export default function RegisterPage() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { client, settings } = useAuthDeps();
  const settingsQuery = useAuthSettingsQuery(settings);
  const min = minPasswordLength(settingsQuery.data);
  const siteUrl = useSiteUrl();
  const formRef = useRef<HTMLFormElement>(null);
  const target = safeRedirect(params.get("redirect"), defaultAfterLogin(locale));

  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [language, setLanguage] = useState<LocaleCode>(locale);
  const [errors, setErrors] = useState<{ name?: FieldError; email?: FieldError; password?: FieldError }>({});
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const nameError = useFieldError(errors.name);
  const emailError = useFieldError(errors.email);
  const passwordError = useFieldError(errors.password);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const next = { name: checkName(name), email: checkEmail(email), password: checkPassword(password, min) };
    setErrors(next);
    setFailure(null);
    if (next.name || next.email || next.password) {
      queueMicrotask(() => focusFirstInvalid(formRef.current));
      return;
    }
    setBusy(true);
    try {
      const supabase = await client();
      const meta: Record<string, string> = { locale: language, preferred_language: language };
      if (name.trim()) meta.display_name = name.trim();
      const { data, error } = await supabase.auth.signUp({
        email: email.trim(),
        password,
        options: { emailRedirectTo: siteUrl("/app/auth/confirm-email"), data: meta },
      });
      if (error) {
        setFailure(toFailure(error));
        return;
      }
      if (data.session) navigate(target, { replace: true });
      else {
        // An existing account: its owner is told by e-mail (never here); a failure changes nothing on screen.
        if (isExistingAccountAnswer(data.user)) void sendAccountNotice(email.trim(), language).catch(() => undefined);
        setSentTo(email.trim());
      }
    } catch (err) {
      setFailure(toFailure(err));
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <AuthCard title="auth.register.checkInboxTitle">
        <FormAlert tone="success" testId="register-sent">
          <FormattedMessage id="auth.register.checkInbox" values={{ email: sentTo }} />
        </FormAlert>
        <EmailCodeForm email={sentTo} type="email" onVerified={() => navigate(target, { replace: true })} />
        <p className="muted">
          <FormattedMessage id="auth.register.checkInboxHint" />
        </p>
        <LocalizedLink to="/app/auth/login">
          <FormattedMessage id="auth.register.backToLogin" />
        </LocalizedLink>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      footer={
        <span>
          <FormattedMessage id="auth.register.haveAccount" />{" "}
          <LocalizedLink
            to={params.get("redirect") ? `/app/auth/login?redirect=${encodeURIComponent(target)}` : "/app/auth/login"}
          >
            <FormattedMessage id="auth.register.loginLink" />
          </LocalizedLink>
        </span>
      }
    >
      <p className="auth-card__lead">
        <FormattedMessage id="auth.register.lead" />
      </p>
      {failure && (
        <FormAlert testId="register-error">
          <FailureText failure={failure} headline="auth.register.failed" />
        </FormAlert>
      )}
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate>
        <Input
          label={intl.formatMessage({ id: "auth.field.displayName" })}
          name="name"
          autoComplete="name"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setErrors((x) => ({ ...x, name: undefined }));
          }}
          error={nameError}
          maxLength={100}
          autoFocus
        />
        <Input
          label={intl.formatMessage({ id: "auth.field.email" })}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErrors((x) => ({ ...x, email: undefined }));
          }}
          error={emailError}
        />
        <PasswordField
          label={intl.formatMessage({ id: "auth.field.password" })}
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setErrors((x) => ({ ...x, password: undefined }));
          }}
          error={passwordError}
          hint={intl.formatMessage({ id: "auth.field.passwordHint" }, { min })}
        />
        <Select
          label={intl.formatMessage({ id: "auth.field.language" })}
          name="language"
          value={language}
          onChange={(e) => isLocaleCode(e.target.value) && setLanguage(e.target.value)}
          options={LOCALES.map((l) => ({ value: l.code, label: l.name }))}
        />
        <Button type="submit" block loading={busy}>
          <FormattedMessage id="auth.register.submit" />
        </Button>
      </form>
    </AuthCard>
  );
}
