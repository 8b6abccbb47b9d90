// /app/auth/confirm-email: where the confirmation email lands (PKCE ?code, or an error in
// the query/hash). Shows success, or the error and a resend form.
import { FormattedMessage } from "react-intl";
import { buttonClassName, Loading } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert } from "../../features/auth/ui";
import { ResendConfirmation } from "../../features/auth/ResendConfirmation";
import { useLandingSession } from "../../features/auth/useLandingSession";

export default function ConfirmEmailPage() {
  const state = useLandingSession();
  if (state.status === "loading") {
    return (
      <AuthCard>
        <Loading />
      </AuthCard>
    );
  }
  if (state.status === "session" && !state.session.user.is_anonymous) {
    return (
      <AuthCard>
        <FormAlert tone="success" testId="confirm-success">
          <FormattedMessage id="auth.confirm.success" values={{ email: state.session.user.email ?? "" }} />
        </FormAlert>
        <LocalizedLink to="/app/bots" className={buttonClassName({ block: true })}>
          <FormattedMessage id="auth.confirm.continue" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  // The link was opened in another browser: the address is confirmed, only the session is missing.
  if (
    state.status === "error" &&
    (state.failure.code === "pkce_code_verifier_not_found" || state.failure.code === "bad_code_verifier")
  ) {
    return (
      <AuthCard>
        <FormAlert tone="info" testId="confirm-login">
          <FormattedMessage id="auth.confirm.confirmedLogin" />
        </FormAlert>
        <LocalizedLink to="/app/auth/login" className={buttonClassName({ block: true })}>
          <FormattedMessage id="auth.login.submit" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  return (
    <AuthCard>
      {state.status === "error" ? (
        <FormAlert testId="confirm-error">
          <FailureText failure={state.failure} headline="auth.confirm.failed" />
        </FormAlert>
      ) : (
        <p className="auth-card__lead">
          <FormattedMessage id="auth.confirm.lead" />
        </p>
      )}
      <ResendConfirmation />
    </AuthCard>
  );
}
