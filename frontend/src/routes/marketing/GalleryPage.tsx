import { FormattedMessage } from "react-intl";
import { EmptyState, Loading } from "../../components/ui";
import { useGalleryBotsQuery } from "../../data/bots/gallery-bots-query";
import { BotCard } from "../../features/gallery/BotCard";

export default function GalleryPage() {
  const query = useGalleryBotsQuery();
  return (
    <section className="page-section">
      <header className="page-header">
        <h1>
          <FormattedMessage id="page.gallery.title" />
        </h1>
        <p className="lead">
          <FormattedMessage id="gallery.lead" />
        </p>
      </header>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <EmptyState icon="◌" title={<FormattedMessage id="gallery.error" />} description={<FormattedMessage id="gallery.errorHint" />} />
      ) : query.data.length === 0 ? (
        <EmptyState icon="◌" title={<FormattedMessage id="gallery.empty" />} />
      ) : (
        <ul className="card-grid">
          {query.data.map((bot) => (
            <BotCard key={bot.id} bot={bot} />
          ))}
        </ul>
      )}
    </section>
  );
}
