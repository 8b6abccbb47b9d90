// "Resend the confirmation email" form; the same answer whether the address exists or not.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { useAuthDeps } from "./deps";
import { useSiteUrl } from "./useAuthClient";
import { FailureText, FormAlert, useFieldError } from "./ui";
import { checkEmail, type FieldError } from "./validation";
import { toFailure, type AuthFailure } from "./errors";

export function ResendConfirmation() {
  const intl = useIntl();
  const { client } = useAuthDeps();
  const siteUrl = useSiteUrl();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<FieldError | undefined>();
  const [failure, setFailure] = useState<AuthFailure | null>(null);
  const [state, setState] = useState<"idle" | "busy" | "sent">("idle");
  const emailError = useFieldError(error);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const err = checkEmail(email);
    setError(err);
    setFailure(null);
    if (err) return;
    setState("busy");
    try {
      const supabase = await client();
      const { error: e2 } = await supabase.auth.resend({
        type: "signup",
        email: email.trim(),
        options: { emailRedirectTo: siteUrl("/app/auth/confirm-email") },
      });
      // Only a rate limit is worth telling: anything else would reveal whether the address exists.
      if (e2 && /rate_limit/.test(e2.code ?? "")) {
        setFailure(toFailure(e2));
        setState("idle");
        return;
      }
      setState("sent");
    } catch (err2) {
      setFailure(toFailure(err2));
      setState("idle");
    }
  }

  if (state === "sent") {
    return (
      <FormAlert tone="success" testId="resend-sent">
        <FormattedMessage id="auth.confirm.resent" />
      </FormAlert>
    );
  }
  return (
    <form
      className="auth-form"
      onSubmit={onSubmit}
      noValidate
      aria-label={intl.formatMessage({ id: "auth.confirm.resendTitle" })}
    >
      <h2 className="h4">
        <FormattedMessage id="auth.confirm.resendTitle" />
      </h2>
      {failure && (
        <FormAlert>
          <FailureText failure={failure} />
        </FormAlert>
      )}
      <Input
        label={intl.formatMessage({ id: "auth.field.email" })}
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={emailError}
      />
      <Button type="submit" theme="secondary" block loading={state === "busy"}>
        <FormattedMessage id="auth.confirm.resend" />
      </Button>
    </form>
  );
}
