// /bots/{botId}/login: the password of a password-protected bot. The check (and the grant
// row it writes) is the bot-login function's; this page only asks and goes back. (In an embed
// the chat asks for the password itself, with the same form: this page refuses to be framed.)
import { FormattedMessage } from "react-intl";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { EmptyState, Loading } from "../../components/ui";
import { usePublicBotQuery } from "../../data/bots/public-bot-query";
import { useLocalePath } from "../../components/LocalizedLink";
import { useVisitorSession } from "../../features/chat/useVisitorSession";
import { BotPasswordForm } from "../../features/chat/BotPasswordForm";
import "../../features/chat/chat.css";

/** Only a path of this site may be the way back (no open redirect). */
export function safeRedirect(value: string | null, fallback: string): string {
  if (value && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")) return value;
  return fallback;
}

export default function BotLoginPage() {
  const { botId } = useParams();
  const [search] = useSearchParams();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const bot = usePublicBotQuery(botId!);
  const visitor = useVisitorSession();

  if (bot.isPending || !visitor.settled) return <Loading className="chat-loading" />;
  if (!bot.data) return <EmptyState title={<FormattedMessage id="chat.error.notFoundTitle" />} description={<FormattedMessage id="chat.error.notFound" />} />;
  return (
    <main id="main" className="bot-login">
      <BotPasswordForm
        botId={botId!}
        botName={bot.data.name}
        onDone={() => navigate(safeRedirect(search.get("redirect"), lp(`/bots/${botId}`)), { replace: true })}
      />
    </main>
  );
}
