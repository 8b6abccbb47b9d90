// The blog and docs index pages.
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { useRouteDef } from "../../app/handle";
import { listContent } from "../../features/content/collections";
import { LocalizedLink, useLocale } from "../../components/LocalizedLink";
import { EmptyState } from "../../components/ui";

export default function ContentListPage() {
  const intl = useIntl();
  const locale = useLocale();
  const def = useRouteDef();
  const collection = def?.meta?.collection ?? "blog";
  const items = listContent(collection, locale);
  return (
    <section className={collection === "blog" ? "container page-section" : "page-section"}>
      <header className="page-header">
        <h1>{intl.formatMessage({ id: def?.title ?? "page.blog.title" })}</h1>
        <p className="lead">
          <FormattedMessage id={`${collection}.intro`} />
        </p>
        <p className="muted">
          <FormattedMessage id="content.count" values={{ count: items.length }} />
        </p>
      </header>
      {items.length === 0 ? (
        <EmptyState title={<FormattedMessage id="content.empty" />} />
      ) : (
        <ul className="card-list">
          {items.map((item) => (
            <li key={item.slug} className="card card--link">
              <LocalizedLink to={`/${collection}/${item.slug}`} className="card__link">
                <h2 className="card__title">{item.title}</h2>
                {item.description && <p className="card__text">{item.description}</p>}
                {item.date && (
                  <p className="muted card__meta">
                    <FormattedDate value={new Date(item.date + "T12:00:00Z")} dateStyle="medium" timeZone="UTC" />
                  </p>
                )}
              </LocalizedLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
