// Two-factor authentication in /app/account: the account's authenticator apps (verified TOTP
// factors), adding one (auth.mfa.enroll: a QR code to scan and the secret to type, confirmed
// with the first code, which also steps this session up to aal2) and removing one (auth asks
// for aal2, as Supabase does: a session that has not used its factor is told to sign in again
// with the code).
import { useRef, useState, type FormEvent } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Loading } from "../../components/ui";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import {
  useEnrollTotpMutation,
  useMfaFactorsQuery,
  useUnenrollFactorMutation,
  useVerifyTotpMutation,
  type Enrolment,
} from "../../data/auth/mfa";
import { errorMessage, toAppError } from "../../lib/errors";
import "./account.css";
import { normalizeCode } from "../../lib/one-time-code";

/** Digits only, as people paste them ("123 456"). */

function EnrolForm({ enrolment, onDone, onCancel }: { enrolment: Enrolment; onDone: () => void; onCancel: () => void }) {
  const intl = useIntl();
  const verify = useVerifyTotpMutation();
  const [code, setCode] = useState("");
  const [invalid, setInvalid] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const refused = verify.error ? errorMessage(verify.error) : null;
  const codeWrong = invalid || (verify.error && toAppError(verify.error).code.startsWith("mfa_"));

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const token = normalizeCode(code);
    verify.reset();
    if (!/^\d{6}$/.test(token)) {
      setInvalid(true);
      inputRef.current?.focus();
      return;
    }
    setInvalid(false);
    verify.mutate({ factorId: enrolment.factorId, code: token }, { onSuccess: onDone, onError: () => inputRef.current?.focus() });
  }

  return (
    <form className="form-stack mfa-enrol" onSubmit={onSubmit} noValidate aria-labelledby="mfa-enrol-title">
      <h3 id="mfa-enrol-title"><FormattedMessage id="account.mfa.enrolTitle" /></h3>
      <ol className="mfa-enrol__steps">
        <li>
          <FormattedMessage id="account.mfa.scan" />
          <img className="mfa-enrol__qr" src={enrolment.qrCode} alt={intl.formatMessage({ id: "account.mfa.qrAlt" })} width={180} height={180} data-testid="mfa-qr" />
        </li>
        <li>
          <FormattedMessage id="account.mfa.orType" />{" "}
          <code className="mfa-enrol__secret" data-testid="mfa-secret">{enrolment.secret}</code>
        </li>
        <li>
          <Input
            ref={inputRef}
            label={intl.formatMessage({ id: "account.mfa.codeLabel" })}
            name="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={9}
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setInvalid(false);
            }}
            error={codeWrong ? intl.formatMessage({ id: "auth.mfa.codeWrong" }) : undefined}
          />
        </li>
      </ol>
      {refused && !codeWrong && <ErrorNote error={verify.error} />}
      <div className="form-actions">
        <Button type="button" theme="secondary" onClick={onCancel}><FormattedMessage id="account.mfa.cancel" /></Button>
        <Button type="submit" loading={verify.isPending}><FormattedMessage id="account.mfa.verify" /></Button>
      </div>
    </form>
  );
}

export function TwoFactorPanel() {
  const intl = useIntl();
  const factors = useMfaFactorsQuery();
  const enrol = useEnrollTotpMutation();
  const unenroll = useUnenrollFactorMutation();
  const [name, setName] = useState("");
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [added, setAdded] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const list = factors.data?.factors ?? [];

  return (
    <section className="panel form-stack" id="two-factor" aria-labelledby="mfa-title" data-testid="two-factor-panel">
      <h2 id="mfa-title"><FormattedMessage id="account.mfa.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="account.mfa.intro" /></p>
      {factors.isPending && <Loading />}
      {factors.isError && <ErrorNote error={factors.error} />}
      {factors.isSuccess && (
        list.length === 0 ? (
          <p className="muted" data-testid="mfa-none"><FormattedMessage id="account.mfa.none" /></p>
        ) : (
          <ul className="mfa-factors" aria-label={intl.formatMessage({ id: "account.mfa.listLabel" })}>
            {list.map((f) => {
              const label = f.friendly_name || intl.formatMessage({ id: "account.mfa.unnamed" });
              return (
                <li key={f.id} className="mfa-factors__item" data-testid="mfa-factor">
                  <span>
                    <strong>{label}</strong>{" "}
                    <span className="muted">
                      <FormattedMessage id="account.mfa.addedOn" values={{ date: <FormattedDate key="date" value={f.created_at} dateStyle="medium" /> }} />
                    </span>
                  </span>
                  <Button theme="delete" size="sm" onClick={() => { unenroll.reset(); setRemoving({ id: f.id, name: label }); }}
                    aria-label={intl.formatMessage({ id: "account.mfa.removeNamed" }, { name: label })}>
                    <FormattedMessage id="account.mfa.remove" />
                  </Button>
                </li>
              );
            })}
          </ul>
        )
      )}
      {added && <p className="form-success" role="status"><FormattedMessage id="account.mfa.added" /></p>}
      {enrolment ? (
        <EnrolForm
          enrolment={enrolment}
          onDone={() => { setEnrolment(null); setAdded(true); setName(""); }}
          onCancel={() => setEnrolment(null)}
        />
      ) : (
        <form
          className="form-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setAdded(false);
            enrol.mutate(name.trim(), { onSuccess: setEnrolment });
          }}
        >
          <Input label={intl.formatMessage({ id: "account.mfa.nameLabel" })} hint={intl.formatMessage({ id: "account.mfa.nameHint" })}
            value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          <ErrorNote error={enrol.error} />
          <div className="form-actions">
            <Button type="submit" loading={enrol.isPending}><FormattedMessage id="account.mfa.add" /></Button>
          </div>
        </form>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={<FormattedMessage id="account.mfa.removeTitle" />}
        body={<FormattedMessage id="account.mfa.removeConfirm" values={{ name: removing?.name ?? "" }} />}
        confirmLabel={<FormattedMessage id="account.mfa.remove" />}
        busy={unenroll.isPending}
        error={<ErrorNote error={unenroll.error} />}
        onConfirm={() => removing && unenroll.mutate(removing.id, { onSuccess: () => setRemoving(null) })}
        onClose={() => { unenroll.reset(); setRemoving(null); }}
      />
    </section>
  );
}
