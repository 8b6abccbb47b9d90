// /app/auth/forgotten-password: sends the recovery email; the same message whether or not
// the address has an account. Its link works on any device (token hash); its code can be typed
// here instead, which signs in for the reset page.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert, useFieldError } from "../../features/auth/ui";
import { useAuthDeps } from "../../features/auth/deps";
import { useSiteUrl } from "../../features/auth/useAuthClient";
import { EmailCodeForm } from "../../features/auth/EmailCodeForm";
import { useNavigate } from "react-router";
import { useLocalePath } from "../../components/LocalizedLink";
import { toFailure, type AuthFailure } from "../../features/auth/errors";
import { checkEmail, type FieldError } from "../../features/auth/validation";

export default function ForgottenPasswordPage() {
  const intl = useIntl();
  const { client } = useAuthDeps();
  const siteUrl = useSiteUrl();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<FieldError | undefined>();
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const emailError = useFieldError(error);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const err = checkEmail(email);
    setError(err);
    setFailure(null);
    if (err) return;
    setBusy(true);
    try {
      const supabase = await client();
      const { error: e2 } = await supabase.auth.resetPasswordForEmail(email.trim(), {
        redirectTo: siteUrl("/app/auth/reset"),
      });
      if (e2 && /rate_limit/.test(e2.code ?? "")) setFailure(toFailure(e2));
      else setSent(true);
    } catch (err2) {
      setFailure(toFailure(err2));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      footer={
        <LocalizedLink to="/app/auth/login">
          <FormattedMessage id="auth.register.backToLogin" />
        </LocalizedLink>
      }
    >
      {sent ? (
        <>
          <FormAlert tone="success" testId="forgot-sent">
            <FormattedMessage id="auth.forgot.sent" />
          </FormAlert>
          <EmailCodeForm email={email.trim()} type="recovery" onVerified={() => navigate(lp("/app/auth/reset"), { replace: true })} />
        </>
      ) : (
        <>
          <p className="auth-card__lead">
            <FormattedMessage id="auth.forgot.lead" />
          </p>
          {failure && (
            <FormAlert>
              <FailureText failure={failure} />
            </FormAlert>
          )}
          <form className="auth-form" onSubmit={onSubmit} noValidate>
            <Input
              label={intl.formatMessage({ id: "auth.field.email" })}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={emailError}
              autoFocus
            />
            <Button type="submit" block loading={busy}>
              <FormattedMessage id="auth.forgot.submit" />
            </Button>
          </form>
        </>
      )}
    </AuthCard>
  );
}
