// Building blocks of the auth screens: the card, the form alert (focused when it appears,
// so screen readers and keyboard users land on it), and a password field with show/hide.
import { forwardRef, useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { cx } from "../../components/ui";
import { useRouteDef } from "../../app/handle";
import { authErrorMessageId, type AuthFailure } from "./errors";
import type { FieldError } from "./validation";
import "./auth.css";

export function AuthCard({
  title,
  titleValues,
  children,
  footer,
}: {
  title?: string;
  titleValues?: Record<string, string>;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const intl = useIntl();
  const def = useRouteDef();
  return (
    <div className="auth-card" data-route-id={def?.id}>
      <h1 className="auth-card__title">
        {intl.formatMessage({ id: title ?? def?.title ?? "page.auth.login.title" }, titleValues)}
      </h1>
      {children}
      {footer && <div className="auth-card__footer">{footer}</div>}
    </div>
  );
}

export function useFieldError(err: FieldError | undefined): string | undefined {
  const intl = useIntl();
  return err ? intl.formatMessage({ id: err.id }, err.values) : undefined;
}

/** A form-level message; `tone` error or success. Takes focus when it appears. */
export function FormAlert({
  tone = "error",
  children,
  testId,
}: {
  tone?: "error" | "success" | "info";
  children: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [children]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={cx("auth-alert", `auth-alert--${tone}`)}
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
    >
      {children}
    </div>
  );
}

/** "Could not login…"-style headline plus GoTrue's specific reason. */
export function FailureText({ failure, headline }: { failure: AuthFailure; headline?: string }) {
  return (
    <>
      {headline && (
        <strong className="auth-alert__headline">
          <FormattedMessage id={headline} />
        </strong>
      )}
      <span className="auth-alert__reason">
        <FormattedMessage id={authErrorMessageId(failure.code)} />
      </span>
    </>
  );
}

type PasswordProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
};

export const PasswordField = forwardRef<HTMLInputElement, PasswordProps>(function PasswordField(
  { label, error, hint, id, className, ...rest },
  ref,
) {
  const intl = useIntl();
  const auto = useId();
  const fid = id ?? auto;
  const [shown, setShown] = useState(false);
  const described = error ? `${fid}-error` : hint ? `${fid}-hint` : undefined;
  return (
    <div className={cx("field", error ? "field--error" : undefined)}>
      <label htmlFor={fid} className="field__label">
        {label}
      </label>
      <div className="auth-password">
        <input
          ref={ref}
          id={fid}
          type={shown ? "text" : "password"}
          className={cx("control", className)}
          aria-invalid={!!error || undefined}
          aria-describedby={described}
          {...rest}
        />
        <button
          type="button"
          className="auth-password__toggle"
          aria-pressed={shown}
          aria-controls={fid}
          onClick={() => setShown((s) => !s)}
        >
          {intl.formatMessage({ id: shown ? "auth.password.hide" : "auth.password.show" })}
        </button>
      </div>
      {hint && !error && (
        <p id={`${fid}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${fid}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
});

/** Focus the first field flagged invalid after a failed submit. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
}
