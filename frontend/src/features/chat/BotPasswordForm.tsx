// The password of a password-protected bot: the bot's login page (routes/bots/LoginPage) and,
// inside an embed, the chat itself (ChatView) show this form. The check (and the grant row it
// writes) is the bot-login function's; the form signs the visitor in first when they have no
// session yet, then tells its caller.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "../../components/ui";
import { botKeys } from "../../data/bots/keys";
import { botLogin } from "../../data/bots/bot-login-mutation";
import { AppError } from "../../lib/errors";
import { useVisitorSession } from "./useVisitorSession";
import "./chat.css";

export function BotPasswordForm({ botId, botName, onDone }: { botId: string; botName: string; onDone: () => void }) {
  const intl = useIntl();
  const qc = useQueryClient();
  const visitor = useVisitorSession();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!password) return;
    setPending(true);
    setError(null);
    try {
      await visitor.ensure();
      await botLogin(botId, password);
      await qc.invalidateQueries({ queryKey: botKeys.all });
      onDone();
    } catch (err) {
      const code = err instanceof AppError ? err.code : "network_error";
      setError(
        code === "incorrect_password"
          ? "chat.login.incorrect"
          : code === "rate_limited"
            ? "chat.error.rateLimited"
            : code === "sign_in_rate_limited"
              ? "chat.error.busy"
              : code === "bot_not_found"
                ? "chat.error.notFound"
                : "chat.error.generic",
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <form className="bot-login__card" onSubmit={(e) => void submit(e)}>
      <h1 className="bot-login__title">{botName}</h1>
      <p className="muted">
        <FormattedMessage id="chat.login.intro" />
      </p>
      <Input
        label={intl.formatMessage({ id: "chat.login.password" })}
        type="password"
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error ? intl.formatMessage({ id: error }, { seconds: 60 }) : undefined}
      />
      <Button type="submit" block loading={pending} disabled={!password}>
        <FormattedMessage id="chat.login.submit" />
      </Button>
    </form>
  );
}
