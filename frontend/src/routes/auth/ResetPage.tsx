// /app/auth/reset: the recovery link lands here (?code, PASSWORD_RECOVERY); set a new password.
import { useState } from "react";
import { FormattedMessage } from "react-intl";
import { buttonClassName, Loading } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert } from "../../features/auth/ui";
import { NewPasswordForm } from "../../features/auth/NewPasswordForm";
import { useLandingSession } from "../../features/auth/useLandingSession";

export default function ResetPage() {
  const state = useLandingSession();
  const [done, setDone] = useState(false);

  if (state.status === "loading") {
    return (
      <AuthCard>
        <Loading />
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard>
        <FormAlert tone="success" testId="reset-done">
          <FormattedMessage id="auth.reset.done" />
        </FormAlert>
        <LocalizedLink to="/app/bots" className={buttonClassName({ block: true })}>
          <FormattedMessage id="auth.confirm.continue" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  if (state.status !== "session" || state.session.user.is_anonymous) {
    return (
      <AuthCard>
        <FormAlert testId="reset-error">
          {state.status === "error" ? (
            <FailureText failure={state.failure} headline="auth.reset.linkFailed" />
          ) : (
            <FormattedMessage id="auth.reset.noSession" />
          )}
        </FormAlert>
        <LocalizedLink
          to="/app/auth/forgotten-password"
          className={buttonClassName({ block: true, theme: "secondary" })}
        >
          <FormattedMessage id="auth.reset.requestNew" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard>
      <p className="auth-card__lead">
        <FormattedMessage id="auth.reset.lead" values={{ email: state.session.user.email ?? "" }} />
      </p>
      <NewPasswordForm onDone={() => setDone(true)} />
    </AuthCard>
  );
}
