// /app/auth/login: email + password, provider buttons when enabled, then ?redirect= (safe).
import { useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useSearchParams } from "react-router";
import { Button, Input } from "../../components/ui";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import {
  AuthCard,
  FailureText,
  FormAlert,
  PasswordField,
  focusFirstInvalid,
  useFieldError,
} from "../../features/auth/ui";
import { ProviderButtons } from "../../features/auth/ProviderButtons";
import { useAuthDeps } from "../../features/auth/deps";
import { useSiteUrl } from "../../features/auth/useAuthClient";
import { defaultAfterLogin, safeRedirect } from "../../lib/redirect";
import { toFailure, type AuthFailure } from "../../features/auth/errors";
import { checkEmail, checkPassword, type FieldError } from "../../features/auth/validation";

export default function LoginPage() {
  const intl = useIntl();
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { client } = useAuthDeps();
  const siteUrl = useSiteUrl();
  const formRef = useRef<HTMLFormElement>(null);
  const redirectParam = params.get("redirect");
  const target = safeRedirect(redirectParam, defaultAfterLogin(locale));

  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: FieldError; password?: FieldError }>({});
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState<"idle" | "busy" | "sent">("idle");
  const emailError = useFieldError(errors.email);
  const passwordError = useFieldError(errors.password);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const next = { email: checkEmail(email), password: checkPassword(password) };
    setErrors(next);
    setFailure(null);
    if (next.email || next.password) {
      queueMicrotask(() => focusFirstInvalid(formRef.current));
      return;
    }
    setBusy(true);
    try {
      const supabase = await client();
      const { error } = await supabase.auth.signInWithPassword({ email: email.trim(), password });
      if (error) {
        setFailure(toFailure(error));
        return;
      }
      navigate(target, { replace: true });
    } catch (err) {
      setFailure(toFailure(err));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setResent("busy");
    try {
      const supabase = await client();
      await supabase.auth.resend({
        type: "signup",
        email: email.trim(),
        options: { emailRedirectTo: siteUrl("/app/auth/confirm-email") },
      });
    } finally {
      // The same answer whether the address exists or not.
      setResent("sent");
    }
  }

  const withRedirect = (path: string) => (redirectParam ? `${path}?redirect=${encodeURIComponent(target)}` : path);

  return (
    <AuthCard
      footer={
        <>
          <span>
            <FormattedMessage id="auth.login.noAccount" />{" "}
            <LocalizedLink to={withRedirect("/app/auth/register")}>
              <FormattedMessage id="auth.login.registerLink" />
            </LocalizedLink>
          </span>
        </>
      }
    >
      <p className="auth-card__lead">
        <FormattedMessage id="auth.login.lead" />
      </p>
      {failure && (
        <FormAlert testId="login-error">
          <FailureText failure={failure} headline="auth.login.failed" />
          {failure.code === "email_not_confirmed" &&
            (resent === "sent" ? (
              <span>
                <FormattedMessage id="auth.confirm.resent" />
              </span>
            ) : (
              <Button size="sm" theme="secondary" loading={resent === "busy"} onClick={resend}>
                <FormattedMessage id="auth.confirm.resend" />
              </Button>
            ))}
        </FormAlert>
      )}
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate>
        <Input
          label={intl.formatMessage({ id: "auth.field.email" })}
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setErrors((x) => ({ ...x, email: undefined }));
          }}
          error={emailError}
          autoFocus
        />
        <PasswordField
          label={intl.formatMessage({ id: "auth.field.password" })}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setErrors((x) => ({ ...x, password: undefined }));
          }}
          error={passwordError}
        />
        <div className="auth-form__row">
          <LocalizedLink to="/app/auth/forgotten-password">
            <FormattedMessage id="auth.login.forgotLink" />
          </LocalizedLink>
        </div>
        <Button type="submit" block loading={busy}>
          <FormattedMessage id="auth.login.submit" />
        </Button>
      </form>
      <ProviderButtons redirect={target} />
    </AuthCard>
  );
}
