import { FormattedMessage } from "react-intl";
import { useParams } from "react-router";
import { buttonClassName, EmptyState, Loading } from "../../components/ui";
import { usePageTitle } from "../../app/head";
import { useGalleryBotQuery } from "../../data/bots/gallery-bots-query";
import { BotAvatar } from "../../features/gallery/BotCard";
import { LocalizedLink } from "../../components/LocalizedLink";

export default function GalleryBotPage() {
  const { botId = "" } = useParams();
  const query = useGalleryBotQuery(botId);
  usePageTitle(query.data?.name);
  if (query.isPending || query.isError || !query.data) {
    return (
      <section className="page-section">
        <h1>
          <FormattedMessage id="page.gallery.title" />
        </h1>
        {query.isPending ? (
          <Loading />
        ) : (
          <EmptyState
            icon="◌"
            title={<FormattedMessage id={query.isError ? "gallery.error" : "gallery.notFound"} />}
            action={
              <LocalizedLink to="/gallery">
                <FormattedMessage id="gallery.back" />
              </LocalizedLink>
            }
          />
        )}
      </section>
    );
  }
  const bot = query.data;
  return (
    <section className="page-section container--narrow gallery-bot">
      <LocalizedLink to="/gallery" className="back-link">
        ← <FormattedMessage id="gallery.back" />
      </LocalizedLink>
      <header className="gallery-bot__header">
        <BotAvatar bot={bot} size={72} />
        <div>
          <h1>{bot.name}</h1>
          {bot.description && <p className="lead">{bot.description}</p>}
        </div>
      </header>
      <LocalizedLink to={`/bots/${bot.id}`} className={buttonClassName({ theme: "primary", size: "lg" })}>
        <FormattedMessage id="gallery.chat" />
      </LocalizedLink>
    </section>
  );
}
