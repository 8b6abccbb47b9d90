// /app/auth/invite?token=…: accept a team invitation. Visitors without an account session
// sign in or register first (and come back here). A brand-new user arriving from the invite
// email has a session but no password yet: they may set one (existing users signed in by the
// sign-in link are not offered it). Postgres decides the rest
// (accept_invitation: expired, used, sent to another address).
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { Button, buttonClassName, Loading } from "../../components/ui";
import { LocalizedLink, useLocalePath } from "../../components/LocalizedLink";
import { AuthCard, FailureText, FormAlert } from "../../features/auth/ui";
import { NewPasswordForm } from "../../features/auth/NewPasswordForm";
import { useLandingSession } from "../../features/auth/useLandingSession";
import { useAuthDeps } from "../../features/auth/deps";
import { authMethods } from "../../features/auth/authMethods";
import { acceptInvitation, useInvitationQuery } from "../../data/invitations/invitation-query";
import { toAppError } from "../../lib/errors";

export function invitationErrorId(err: { code?: string; message?: string } | null | undefined): string {
  const msg = err?.message ?? "";
  if (/already been used/i.test(msg)) return "auth.invite.used";
  if (/expired/i.test(msg)) return "auth.invite.expired";
  if (/another email/i.test(msg)) return "auth.invite.wrongEmail";
  if (err?.code === "PT404" || /not valid/i.test(msg)) return "auth.invite.invalid";
  return "auth.invite.failed";
}

export default function InvitePage() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const location = useLocation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const token = params.get("token") ?? "";
  const landing = useLandingSession();
  const { client } = useAuthDeps();
  const [passwordSet, setPasswordSet] = useState(false);
  const [acceptError, setAcceptError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = landing.status === "session" && !landing.session.user.is_anonymous;

  const invitation = useInvitationQuery(client, token, signedIn);

  const here = location.pathname + `?token=${encodeURIComponent(token)}`;
  // The invite email (and the sign-in link for existing users) signs the person in. Only the
  // invite email's session belongs to someone without a password yet: an existing user who came
  // by the sign-in link has one (and changing it asks for the current one, on the account page).
  const byInvitation = landing.status === "session" && landing.fromUrl && authMethods(landing.session.access_token).includes("invite");

  async function accept() {
    setBusy(true);
    setAcceptError(null);
    try {
      const teamId = await acceptInvitation(await client(), token);
      navigate(lp(`/app/teams/${teamId}`), { replace: true });
    } catch (err) {
      setAcceptError(invitationErrorId(toAppError(err)));
    } finally {
      setBusy(false);
    }
  }

  if (!token) {
    return (
      <AuthCard>
        <FormAlert testId="invite-error">
          <FormattedMessage id="auth.invite.invalid" />
        </FormAlert>
      </AuthCard>
    );
  }
  if (landing.status === "loading" || (signedIn && invitation.isPending)) {
    return (
      <AuthCard>
        <Loading />
      </AuthCard>
    );
  }
  if (!signedIn) {
    const back = encodeURIComponent(here);
    return (
      <AuthCard>
        {landing.status === "error" && (
          <FormAlert>
            <FailureText failure={landing.failure} />
          </FormAlert>
        )}
        <p className="auth-card__lead">
          <FormattedMessage id="auth.invite.signInFirst" />
        </p>
        <div className="auth-actions">
          <LocalizedLink to={`/app/auth/login?redirect=${back}`} className={buttonClassName({})}>
            <FormattedMessage id="auth.login.submit" />
          </LocalizedLink>
          <LocalizedLink to={`/app/auth/register?redirect=${back}`} className={buttonClassName({ theme: "secondary" })}>
            <FormattedMessage id="auth.login.registerLink" />
          </LocalizedLink>
        </div>
      </AuthCard>
    );
  }
  const inv = invitation.data;
  return (
    <AuthCard>
      {invitation.isError && (
        <FormAlert>
          <FormattedMessage id="auth.invite.failed" />
        </FormAlert>
      )}
      {invitation.isSuccess && !inv && (
        <FormAlert testId="invite-error">
          <FormattedMessage id="auth.invite.invalid" />
        </FormAlert>
      )}
      {inv && (
        <dl className="auth-invite">
          <dt>
            <FormattedMessage id="auth.invite.team" />
          </dt>
          <dd>{inv.team_name}</dd>
          <dt>
            <FormattedMessage id="auth.invite.role" />
          </dt>
          <dd>
            {intl.formatMessage({ id: inv.role === "owner" ? "auth.invite.roleOwner" : "auth.invite.roleAdmin" })}
          </dd>
          <dt>
            <FormattedMessage id="auth.invite.for" />
          </dt>
          <dd>{inv.email}</dd>
        </dl>
      )}
      {acceptError && (
        <FormAlert testId="invite-error">
          <FormattedMessage id={acceptError} />
        </FormAlert>
      )}
      {byInvitation && !passwordSet && (
        <section aria-labelledby="invite-password">
          <h2 id="invite-password" className="h4">
            <FormattedMessage id="auth.invite.setPassword" />
          </h2>
          <p className="muted">
            <FormattedMessage id="auth.invite.setPasswordHint" />
          </p>
          <NewPasswordForm submitLabel="auth.invite.savePassword" onDone={() => setPasswordSet(true)} />
        </section>
      )}
      {passwordSet && (
        <FormAlert tone="success" testId="invite-password-set">
          <FormattedMessage id="auth.invite.passwordSet" />
        </FormAlert>
      )}
      {inv && !inv.accepted && (
        <Button block loading={busy} onClick={accept}>
          <FormattedMessage id="auth.invite.accept" />
        </Button>
      )}
      {inv?.accepted && (
        <LocalizedLink to={`/app/teams/${inv.team_id}`} className={buttonClassName({ block: true })}>
          <FormattedMessage id="auth.invite.openTeam" />
        </LocalizedLink>
      )}
    </AuthCard>
  );
}
