// "Or enter the code from the e-mail": the six-digit code every sign-up and password-reset e-mail
// carries, accepted here so the e-mail works on any device (read it on the phone, type it on the
// laptop). verifyOtp with the address and the code; the caller decides where the session goes.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { Session } from "@supabase/supabase-js";
import { Button, Input } from "../../components/ui";
import { normalizeCode } from "../../lib/one-time-code";
import { useAuthDeps } from "./deps";
import { toFailure, type AuthFailure } from "./errors";
import { FailureText, FormAlert } from "./ui";

export type EmailCodeType = "email" | "recovery";


export function EmailCodeForm({ email, type, onVerified }: { email: string; type: EmailCodeType; onVerified: (session: Session) => void }) {
  const intl = useIntl();
  const { client } = useAuthDeps();
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const token = normalizeCode(code);
    setFailure(null);
    if (!/^\d{6,10}$/.test(token)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setBusy(true);
    try {
      const supabase = await client();
      const { data, error } = await supabase.auth.verifyOtp({ email, token, type });
      if (error || !data.session) {
        const f = toFailure(error ?? { code: "session_not_found" });
        // GoTrue says otp_expired for a wrong code as well as an old one.
        if (f.code === "otp_expired") setInvalid(true);
        else setFailure(f);
        return;
      }
      onVerified(data.session);
    } catch (err) {
      setFailure(toFailure(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="auth-form auth-code" onSubmit={onSubmit} noValidate>
      <p className="muted">
        <FormattedMessage id="auth.code.lead" />
      </p>
      {failure && (
        <FormAlert>
          <FailureText failure={failure} />
        </FormAlert>
      )}
      <Input
        label={intl.formatMessage({ id: "auth.code.label" })}
        name="email-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={14}
        value={code}
        onChange={(e) => {
          setCode(e.target.value);
          setInvalid(false);
        }}
        error={invalid ? intl.formatMessage({ id: "auth.code.invalid" }) : undefined}
      />
      <Button type="submit" block theme="secondary" loading={busy}>
        <FormattedMessage id="auth.code.submit" />
      </Button>
    </form>
  );
}
