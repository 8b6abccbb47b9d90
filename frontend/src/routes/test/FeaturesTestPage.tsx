// /test/features: the chat features side by side (page chat, bubble embed, centred embed)
// for manual checks and browser tests.
import { FormattedMessage } from "react-intl";
import { useSearchParams } from "react-router";
import { ChatView } from "../../features/chat/ChatView";
import { RouterChatNav } from "../../features/chat/RouterChatNav";
import { useLocalePath } from "../../components/LocalizedLink";
import "../../features/chat/chat.css";
import { DEMO_BOT_ID } from "./demoBot";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default function FeaturesTestPage() {
  const [search] = useSearchParams();
  const bot = search.get("bot");
  const botId = bot && UUID.test(bot) ? bot : DEMO_BOT_ID;
  const lp = useLocalePath();
  return (
    <main id="main" className="test-page test-page--features">
      <h1>
        <FormattedMessage id="chat.test.featuresTitle" />
      </h1>
      <p>
        <FormattedMessage id="chat.test.featuresIntro" />
      </p>
      <div className="test-features__grid">
        <section className="test-features__panel">
          <h2><FormattedMessage id="chat.test.panelChat" /></h2>
          <div className="test-features__frame">
            <RouterChatNav>
              <ChatView botId={botId} variant="embed-center" />
            </RouterChatNav>
          </div>
        </section>
        <section className="test-features__panel">
          <h2><FormattedMessage id="chat.test.panelEmbed" /></h2>
          <iframe className="test-features__iframe" title="embed" src={lp(`/bots/${botId}/embed`)} />
        </section>
      </div>
    </main>
  );
}
