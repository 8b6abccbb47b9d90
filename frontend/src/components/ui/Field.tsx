import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { cx } from "./cx";

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  hideLabel?: boolean;
}

function FieldShell({ id, label, hint, error, hideLabel, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={cx("field", error ? "field--error" : undefined)}>
      <label htmlFor={id} className={cx("field__label", hideLabel && "sr-only")}>
        {label}
      </label>
      {children}
      {hint && !error && <p id={`${id}-hint`} className="field__hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="field__error" role="alert">{error}</p>}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown) {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

export const Input = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(function Input({ label, hint, error, hideLabel, id, className, ...rest }, ref) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell id={fid} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <input ref={ref} id={fid} className={cx("control", className)} aria-invalid={!!error || undefined} aria-describedby={describedBy(fid, hint, error)} {...rest} />
    </FieldShell>
  );
});

export const Textarea = forwardRef<HTMLTextAreaElement, FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ label, hint, error, hideLabel, id, className, ...rest }, ref) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell id={fid} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <textarea ref={ref} id={fid} className={cx("control", "control--textarea", className)} aria-invalid={!!error || undefined} aria-describedby={describedBy(fid, hint, error)} {...rest} />
    </FieldShell>
  );
});

export interface SelectOption {
  value: string;
  label: string;
}

export const Select = forwardRef<HTMLSelectElement, FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly SelectOption[] }>(function Select(
  { label, hint, error, hideLabel, id, className, options, ...rest },
  ref,
) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell id={fid} label={label} hint={hint} error={error} hideLabel={hideLabel}>
      <select ref={ref} id={fid} className={cx("control", "control--select", className)} aria-invalid={!!error || undefined} aria-describedby={describedBy(fid, hint, error)} {...rest}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
});
