// The sign-in's second step (/app/auth/mfa). After a password, e-mail link or provider sign-in
// of an account with a verified TOTP factor the guards send the user here (aal1 now, aal2
// next): the authenticator app's six-digit code steps the session up (challengeAndVerify),
// then ?redirect= (safe). Signing out is offered for someone who cannot give the code.
// With ?reason=admin and no factor at all: a platform administrator, told that the admin
// area needs two-factor authentication and led to set it up in the account screen.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useSearchParams } from "react-router";
import type { Factor } from "@supabase/supabase-js";
import { Button, buttonClassName, Input, Loading } from "../../components/ui";
import { LocalizedLink, useLocale, useLocalePath } from "../../components/LocalizedLink";
import { useVerifyTotpMutation, verifiedTotpFactors } from "../../data/auth/mfa";
import { defaultAfterLogin, safeRedirect } from "../../lib/redirect";
import { useAuthDeps } from "./deps";
import { normalizeCode } from "../../lib/one-time-code";
import { toFailure, type AuthFailure } from "./errors";
import { AuthCard, FailureText, FormAlert } from "./ui";

type StepState = { status: "loading" } | { status: "code"; factor: Factor } | { status: "enrol" } | { status: "error"; failure: AuthFailure };

export function SecondFactorStep() {
  const intl = useIntl();
  const locale = useLocale();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { client } = useAuthDeps();
  const target = safeRedirect(params.get("redirect"), defaultAfterLogin(locale));
  const forAdmin = params.get("reason") === "admin";
  const [state, setState] = useState<StepState>({ status: "loading" });
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const verify = useVerifyTotpMutation(client);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const supabase = await client();
      const { data } = await supabase.auth.getSession();
      // No account session (signed out meanwhile, or a bookmark): say so, with the way to the login.
      if (!data.session || data.session.user.is_anonymous) return !cancelled && setState({ status: "error", failure: { code: "session_not_found" } });
      const [level, factors] = await Promise.all([supabase.auth.mfa.getAuthenticatorAssuranceLevel(), verifiedTotpFactors(supabase)]);
      if (cancelled) return;
      if (level.data?.currentLevel === "aal2") return navigate(target, { replace: true });
      const factor = factors.find((f) => f.status === "verified");
      if (factor) return setState({ status: "code", factor });
      // Nothing to verify: only an administrator is sent here without a factor.
      if (forAdmin) return setState({ status: "enrol" });
      navigate(target, { replace: true });
    })().catch((err) => !cancelled && setState({ status: "error", failure: toFailure(err) }));
    return () => {
      cancelled = true;
    };
  }, [client, navigate, target, forAdmin]);

  async function signOut() {
    setSigningOut(true);
    try {
      await (await client()).auth.signOut();
    } finally {
      navigate(lp("/app/auth/login"), { replace: true });
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (state.status !== "code") return;
    const token = normalizeCode(code);
    verify.reset();
    if (!/^\d{6}$/.test(token)) {
      setInvalid(true);
      inputRef.current?.focus();
      return;
    }
    setInvalid(false);
    verify.mutate(
      { factorId: state.factor.id, code: token },
      {
        onSuccess: () => navigate(target, { replace: true }),
        onError: () => {
          setCode("");
          inputRef.current?.focus();
        },
      },
    );
  }

  const signOutButton = (
    <Button theme="transparent" size="sm" loading={signingOut} onClick={() => void signOut()}>
      <FormattedMessage id="auth.mfa.signOut" />
    </Button>
  );

  if (state.status === "loading") {
    return (
      <AuthCard>
        <Loading />
      </AuthCard>
    );
  }
  if (state.status === "error") {
    return (
      <AuthCard footer={state.failure.code === "session_not_found" ? undefined : signOutButton}>
        <FormAlert testId="mfa-error">
          <FailureText failure={state.failure} />
        </FormAlert>
        <LocalizedLink to={`/app/auth/login?redirect=${encodeURIComponent(target)}`} className={buttonClassName({ block: true, theme: "secondary" })}>
          <FormattedMessage id="auth.register.backToLogin" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  if (state.status === "enrol") {
    return (
      <AuthCard title="auth.mfa.adminTitle" footer={signOutButton}>
        <FormAlert tone="info" testId="mfa-admin-required">
          <FormattedMessage id="auth.mfa.adminNeedsFactor" />
        </FormAlert>
        <LocalizedLink to="/app/account#two-factor" className={buttonClassName({ block: true })}>
          <FormattedMessage id="auth.mfa.setUp" />
        </LocalizedLink>
      </AuthCard>
    );
  }
  const failureCode = verify.error ? toFailure(verify.error).code : null;
  return (
    <AuthCard footer={signOutButton}>
      <p className="auth-card__lead">
        <FormattedMessage id={forAdmin ? "auth.mfa.adminLead" : "auth.mfa.lead"} />
      </p>
      {failureCode && failureCode !== "mfa_verification_failed" && (
        <FormAlert testId="mfa-error">
          <FailureText failure={{ code: failureCode }} />
        </FormAlert>
      )}
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <Input
          ref={inputRef}
          label={intl.formatMessage({ id: "auth.mfa.codeLabel" })}
          name="totp-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={9}
          autoFocus
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            setInvalid(false);
          }}
          error={invalid || failureCode === "mfa_verification_failed" ? intl.formatMessage({ id: "auth.mfa.codeWrong" }) : undefined}
        />
        <Button type="submit" block loading={verify.isPending}>
          <FormattedMessage id="auth.mfa.submit" />
        </Button>
      </form>
    </AuthCard>
  );
}
