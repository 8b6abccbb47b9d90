// /bots/{botId}/login: the password of a password-protected bot. The check (and the grant
// row it writes) is the bot-login function's; this page only asks and goes back.
import { useState, type FormEvent } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Button, EmptyState, Input, Loading } from "../../components/ui";
import { usePublicBotQuery } from "../../data/bots/public-bot-query";
import { botKeys } from "../../data/bots/keys";
import { useLocalePath } from "../../components/LocalizedLink";
import { botLogin } from "../../data/bots/bot-login-mutation";
import { AppError } from "../../lib/errors";
import { useVisitorSession } from "../../features/chat/useVisitorSession";
import "../../features/chat/chat.css";

/** Only a path of this site may be the way back (no open redirect). */
export function safeRedirect(value: string | null, fallback: string): string {
  if (value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return value;
  return fallback;
}

export default function BotLoginPage() {
  const { botId } = useParams();
  const [search] = useSearchParams();
  const intl = useIntl();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const bot = usePublicBotQuery(botId!);
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
      await botLogin(botId!, password);
      await qc.invalidateQueries({ queryKey: botKeys.all });
      navigate(safeRedirect(search.get("redirect"), lp(`/bots/${botId}`)), { replace: true });
    } catch (err) {
      const code = err instanceof AppError ? err.code : "network_error";
      setError(code === "incorrect_password" ? "chat.login.incorrect" : code === "rate_limited" ? "chat.error.rateLimited" : code === "sign_in_rate_limited" ? "chat.error.busy" : code === "bot_not_found" ? "chat.error.notFound" : "chat.error.generic");
    } finally {
      setPending(false);
    }
  }

  if (bot.isPending || !visitor.settled) return <Loading className="chat-loading" />;
  if (!bot.data) return <EmptyState title={<FormattedMessage id="chat.error.notFoundTitle" />} description={<FormattedMessage id="chat.error.notFound" />} />;
  return (
    <main id="main" className="bot-login">
      <form className="bot-login__card" onSubmit={(e) => void submit(e)}>
        <h1 className="bot-login__title">{bot.data.name}</h1>
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
    </main>
  );
}
