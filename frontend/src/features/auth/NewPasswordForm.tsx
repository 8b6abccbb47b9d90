// Set a password for the signed-in user (after a recovery link, or a new invited user).
import { useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button } from "../../components/ui";
import { useAuthDeps } from "./deps";
import { FailureText, FormAlert, PasswordField, focusFirstInvalid, useFieldError } from "./ui";
import { checkPassword, type FieldError } from "./validation";
import { toFailure, type AuthFailure } from "./errors";
import { minPasswordLength, useAuthSettingsQuery } from "../../data/auth/auth-settings-query";

export function NewPasswordForm({
  onDone,
  submitLabel = "auth.reset.submit",
}: {
  onDone: () => void;
  submitLabel?: string;
}) {
  const intl = useIntl();
  const { client, settings } = useAuthDeps();
  const min = minPasswordLength(useAuthSettingsQuery(settings).data);
  const formRef = useRef<HTMLFormElement>(null);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: FieldError; confirm?: FieldError }>({});
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordError = useFieldError(errors.password);
  const confirmError = useFieldError(errors.confirm);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const next = {
      password: checkPassword(password, min),
      confirm: confirm !== password ? { id: "auth.validation.passwordsMismatch" } : undefined,
    };
    setErrors(next);
    setFailure(null);
    if (next.password || next.confirm) {
      queueMicrotask(() => focusFirstInvalid(formRef.current));
      return;
    }
    setBusy(true);
    try {
      const supabase = await client();
      const { error } = await supabase.auth.updateUser({ password });
      if (error) setFailure(toFailure(error));
      else onDone();
    } catch (err) {
      setFailure(toFailure(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate>
      {failure && (
        <FormAlert testId="password-error">
          <FailureText failure={failure} headline="auth.reset.failed" />
        </FormAlert>
      )}
      <PasswordField
        label={intl.formatMessage({ id: "auth.field.newPassword" })}
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setErrors((x) => ({ ...x, password: undefined }));
        }}
        error={passwordError}
        hint={intl.formatMessage({ id: "auth.field.passwordHint" }, { min })}
        autoFocus
      />
      <PasswordField
        label={intl.formatMessage({ id: "auth.field.confirmPassword" })}
        name="confirm-password"
        autoComplete="new-password"
        value={confirm}
        onChange={(e) => {
          setConfirm(e.target.value);
          setErrors((x) => ({ ...x, confirm: undefined }));
        }}
        error={confirmError}
      />
      <Button type="submit" block loading={busy}>
        <FormattedMessage id={submitLabel} />
      </Button>
    </form>
  );
}
