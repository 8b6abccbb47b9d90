// A lead form a power-up offers in the chat: the fields the bot's owner chose, checked here as
// public.submit_lead checks them, sent through the visitor's own session. The visitor cannot read
// leads back, so this browser remembers which forms it sent, to show them as sent after a reload.
import { useId, useRef, useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import type { ChatLeadForm, LeadFormField } from "@shared/contracts/chat.ts";
import { useLeadSubmitMutation } from "../../data/powerUps/lead-submit-mutation";
import { AppError } from "../../lib/errors";
import { useVisitorIdentity, type VisitorIdentity } from "./identity";

// The same rules as private.submit_lead (migration 20261123030000_power_ups).
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const PHONE = /^[+0-9 ()./-]{5,40}$/;
const MAX_CHARS = 2000;

const AUTOCOMPLETE: Record<LeadFormField, string> = { name: "name", email: "email", phone: "tel", company: "organization", message: "off" };
const INPUT_TYPE: Record<LeadFormField, string> = { name: "text", email: "email", phone: "tel", company: "text", message: "text" };

type Values = Partial<Record<LeadFormField, string>>;

/** The lead form's fields the host site already named (Parley.identify): the visitor can still edit them. */
export function prefillFromIdentity(fields: readonly LeadFormField[], identity: VisitorIdentity | null): Values {
  const values: Values = {};
  if (!identity) return values;
  for (const field of fields) {
    if (field === "message") continue;
    const value = identity[field];
    if (typeof value === "string" || typeof value === "number") values[field] = String(value);
  }
  return values;
}

/** The message id of each field's problem, or none. */
export function leadFormErrors(form: Pick<ChatLeadForm, "fields" | "required">, values: Values): Partial<Record<LeadFormField, string>> {
  const errors: Partial<Record<LeadFormField, string>> = {};
  for (const field of form.fields) {
    const value = (values[field] ?? "").trim();
    if (!value) {
      if (form.required.includes(field)) errors[field] = "chat.lead.error.required";
    } else if (value.length > MAX_CHARS) errors[field] = "chat.lead.error.tooLong";
    else if (field === "email" && !EMAIL.test(value)) errors[field] = "chat.lead.error.email";
    else if (field === "phone" && !PHONE.test(value)) errors[field] = "chat.lead.error.phone";
  }
  return errors;
}

const sentKey = (messageId: string, powerUpId: string) => `parley.leadSent.${messageId}.${powerUpId}`;

function wasSent(messageId: string | undefined, powerUpId: string): boolean {
  try {
    return !!messageId && localStorage.getItem(sentKey(messageId, powerUpId)) === "1";
  } catch {
    return false;
  }
}

function rememberSent(messageId: string | undefined, powerUpId: string) {
  try {
    if (messageId) localStorage.setItem(sentKey(messageId, powerUpId), "1");
  } catch {
    // Storage may be off (private mode, blocked iframe): the form shows as sent until a reload.
  }
}

function failureMessageId(err: unknown): string {
  const hint = err instanceof AppError ? err.hint ?? err.code : "";
  if (hint === "rate_limited" || hint === "PT429") return "chat.lead.error.rateLimited";
  if (hint === "invalid_input" || hint === "22023") return "chat.lead.error.invalid";
  return "chat.lead.error.failed";
}

export function LeadForm({ form, chatId, messageId }: { form: ChatLeadForm; chatId?: string; messageId?: string }) {
  const intl = useIntl();
  const id = useId();
  const mutation = useLeadSubmitMutation();
  const identity = useVisitorIdentity();
  const [values, setValues] = useState<Values>(() => prefillFromIdentity(form.fields, identity));
  const [errors, setErrors] = useState<Partial<Record<LeadFormField, string>>>({});
  const [sent, setSent] = useState(() => wasSent(messageId, form.power_up_id));
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const title = form.label || intl.formatMessage({ id: "chat.lead.title" });

  if (sent) {
    return (
      <div className="chat-lead chat-lead--sent" role="status">
        <FormattedMessage id="chat.lead.sent" />
      </div>
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!chatId || mutation.isPending) return;
    const found = leadFormErrors(form, values);
    setErrors(found);
    setFailure(null);
    const first = form.fields.find((f) => found[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    const fields: Values = {};
    for (const f of form.fields) if (values[f]?.trim()) fields[f] = values[f]!.trim();
    mutation.mutate(
      { chatId, powerUpId: form.power_up_id, fields },
      {
        onSuccess: () => {
          rememberSent(messageId, form.power_up_id);
          setSent(true);
        },
        onError: (err) => setFailure(failureMessageId(err)),
      },
    );
  }

  return (
    <form ref={formRef} className="chat-lead" aria-labelledby={`${id}-title`} noValidate onSubmit={submit}>
      <h4 className="chat-lead__title" id={`${id}-title`}>
        {title}
      </h4>
      {form.intro && <p className="chat-lead__intro">{form.intro}</p>}
      {form.fields.map((field) => {
        const inputId = `${id}-${field}`;
        const required = form.required.includes(field);
        const error = errors[field];
        const common = {
          id: inputId,
          name: field,
          className: "chat-lead__input",
          value: values[field] ?? "",
          maxLength: MAX_CHARS,
          required,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": error ? `${inputId}-error` : undefined,
          disabled: mutation.isPending,
          onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
        };
        return (
          <div className="chat-lead__field" key={field}>
            <label htmlFor={inputId}>
              <FormattedMessage id={`chat.lead.field.${field}`} />
              {required && (
                <span className="chat-lead__required">
                  {" "}
                  <FormattedMessage id="chat.lead.required" />
                </span>
              )}
            </label>
            {field === "message" ? <textarea rows={3} {...common} /> : <input type={INPUT_TYPE[field]} autoComplete={AUTOCOMPLETE[field]} {...common} />}
            {error && (
              <p className="chat-lead__error" id={`${inputId}-error`}>
                <FormattedMessage id={error} />
              </p>
            )}
          </div>
        );
      })}
      {failure && (
        <p className="chat-error" role="alert">
          <FormattedMessage id={failure} />
        </p>
      )}
      <button type="submit" className="chat-lead__submit" disabled={!chatId || mutation.isPending}>
        <FormattedMessage id={mutation.isPending ? "chat.lead.sending" : "chat.lead.submit"} />
      </button>
    </form>
  );
}
