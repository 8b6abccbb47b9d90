// /test/widget: a plain page with the widget loaded, as on a customer's site.
import { FormattedMessage } from "react-intl";
import { useSearchParams } from "react-router";
import { useLocale } from "../../components/LocalizedLink";
import { useWidgetScript } from "../../features/chat/useWidgetScript";
import { DEMO_BOT_ID } from "./demoBot";
import "../../features/chat/chat.css";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function WidgetTestPage() {
  const [search] = useSearchParams();
  const locale = useLocale();
  const bot = search.get("bot");
  const botId = bot && UUID.test(bot) ? bot : DEMO_BOT_ID;
  useWidgetScript({ botId, lang: locale, open: search.get("open") === "true", position: search.get("position") === "left" ? "left" : "right" });
  return (
    <main id="main" className="test-page">
      <h1>
        <FormattedMessage id="chat.test.widgetTitle" />
      </h1>
      <p>
        <FormattedMessage id="chat.test.widgetIntro" />
      </p>
    </main>
  );
}
