// Password and email changes through auth; account deletion through the account-delete function.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { Button, Input } from "../../components/ui";
import { useChangeEmailMutation } from "../../data/profiles/email-change-mutation";
import { useChangePasswordMutation } from "../../data/profiles/password-change-mutation";
import { useSendReauthenticationCodeMutation } from "../../data/auth/mfa";
import { useDeleteAccountMutation } from "../../data/profiles/account-delete-mutation";
import { useLocalePath } from "../../components/LocalizedLink";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import { errorMessage, toAppError } from "../../lib/errors";
import "./account.css";

export const MIN_PASSWORD = 8;

/** Auth's refusals that are about the current password (or the code that stands for it): shown at its field. */
const CURRENT_PASSWORD_CODES = new Set(["current_password_mismatch", "reauthentication_needed", "reauthentication_not_valid"]);

/**
 * Supabase's secure password change: the current password, or ("send me a code") the code
 * auth.reauthenticate() mails, given to updateUser as `nonce`. The code serves those who
 * forgot the password while signed in, or who never set one but auth still asks.
 */
export function PasswordPanel() {
  const intl = useIntl();
  const change = useChangePasswordMutation();
  const sendCode = useSendReauthenticationCodeMutation();
  const [current, setCurrent] = useState("");
  const [nonce, setNonce] = useState("");
  const [byCode, setByCode] = useState(false);
  const [pw, setPw] = useState("");
  const [again, setAgain] = useState("");
  const [touched, setTouched] = useState(false);
  const [saved, setSaved] = useState(false);
  const short = pw.length < MIN_PASSWORD;
  const mismatch = pw !== again;
  const code = nonce.replace(/[\s-]/g, "");
  const codeMissing = byCode && !/^\d{6,10}$/.test(code);
  const currentRefused = change.error && CURRENT_PASSWORD_CODES.has(toAppError(change.error).code) ? errorMessage(change.error) : null;
  const refusedText = currentRefused ? intl.formatMessage({ id: currentRefused.id }, currentRefused.values) : undefined;
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="password-title"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        setSaved(false);
        if (short || mismatch || codeMissing) return;
        const proof = byCode ? { nonce: code } : { currentPassword: current };
        change.mutate({ password: pw, ...proof }, {
          onSuccess: () => { setSaved(true); setCurrent(""); setNonce(""); setByCode(false); sendCode.reset(); setPw(""); setAgain(""); setTouched(false); },
        });
      }}
    >
      <h2 id="password-title"><FormattedMessage id="account.password.title" /></h2>
      {byCode ? (
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={14} label={intl.formatMessage({ id: "account.password.code" })} value={nonce}
          onChange={(e) => setNonce(e.target.value)} hint={intl.formatMessage({ id: "account.password.codeSent" })}
          error={touched && codeMissing ? intl.formatMessage({ id: "account.password.codeMissing" }) : refusedText} />
      ) : (
        <Input type="password" autoComplete="current-password" label={intl.formatMessage({ id: "account.password.current" })} value={current} onChange={(e) => setCurrent(e.target.value)}
          hint={intl.formatMessage({ id: "account.password.currentHint" })} error={refusedText} />
      )}
      <div className="form-actions form-actions--start">
        <Button type="button" theme="transparent" size="sm" loading={sendCode.isPending}
          onClick={() => sendCode.mutate(undefined, { onSuccess: () => { setByCode(true); change.reset(); } })}>
          <FormattedMessage id={byCode ? "account.password.sendAgain" : "account.password.sendCode"} />
        </Button>
        {byCode && (
          <Button type="button" theme="transparent" size="sm" onClick={() => { setByCode(false); setNonce(""); change.reset(); }}>
            <FormattedMessage id="account.password.useCurrent" />
          </Button>
        )}
      </div>
      <ErrorNote error={sendCode.error} />
      <Input type="password" autoComplete="new-password" label={intl.formatMessage({ id: "account.password.new" })} value={pw} onChange={(e) => setPw(e.target.value)} error={touched && short ? intl.formatMessage({ id: "account.password.tooShort" }, { min: MIN_PASSWORD }) : undefined} />
      <Input type="password" autoComplete="new-password" label={intl.formatMessage({ id: "account.password.repeat" })} value={again} onChange={(e) => setAgain(e.target.value)} error={touched && !short && mismatch ? intl.formatMessage({ id: "account.password.mismatch" }) : undefined} />
      {!currentRefused && <ErrorNote error={change.error} />}
      {saved && <p className="form-success" role="status"><FormattedMessage id="account.password.changed" /></p>}
      <div className="form-actions"><Button type="submit" loading={change.isPending}><FormattedMessage id="account.password.submit" /></Button></div>
    </form>
  );
}

export function EmailPanel({ current }: { current: string }) {
  const intl = useIntl();
  const lp = useLocalePath();
  const change = useChangeEmailMutation();
  const [email, setEmail] = useState("");
  const [touched, setTouched] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invalid = !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email.trim()) || email.trim().toLowerCase() === current.toLowerCase();
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="email-title"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        setSentTo(null);
        if (invalid) return;
        const to = email.trim();
        change.mutate({ email: to, redirectTo: `${window.location.origin}${lp("/app/account")}` }, { onSuccess: () => { setSentTo(to); setEmail(""); setTouched(false); } });
      }}
    >
      <h2 id="email-title"><FormattedMessage id="account.email.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="account.email.current" values={{ email: current }} /></p>
      <Input type="email" autoComplete="email" label={intl.formatMessage({ id: "account.email.new" })} value={email} onChange={(e) => setEmail(e.target.value)} error={touched && invalid ? intl.formatMessage({ id: "account.email.invalid" }) : undefined} />
      <ErrorNote error={change.error} />
      {sentTo && <p className="form-success" role="status"><FormattedMessage id="account.email.sent" values={{ email: sentTo }} /></p>}
      <div className="form-actions"><Button type="submit" loading={change.isPending}><FormattedMessage id="account.email.submit" /></Button></div>
    </form>
  );
}

export function DeleteAccountPanel({ email }: { email: string }) {
  const del = useDeleteAccountMutation();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [open, setOpen] = useState(false);
  return (
    <section className="panel panel--danger" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title"><FormattedMessage id="account.delete.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="account.delete.intro" /></p>
      <Button theme="delete" onClick={() => setOpen(true)}><FormattedMessage id="account.delete.action" /></Button>
      <ConfirmDialog
        open={open}
        typed={email}
        title={<FormattedMessage id="account.delete.title" />}
        body={<FormattedMessage id="account.delete.confirm" />}
        confirmLabel={<FormattedMessage id="account.delete.action" />}
        busy={del.isPending}
        error={<ErrorNote error={del.error} />}
        onConfirm={() => del.mutate(undefined, { onSuccess: () => navigate(lp("/")) })}
        onClose={() => { del.reset(); setOpen(false); }}
      />
    </section>
  );
}
