import { FormattedMessage, useIntl } from "react-intl";
import { LocalizedNavLink, useLocale } from "../../components/LocalizedLink";
import { listContent } from "./collections";

export function DocsNav() {
  const intl = useIntl();
  const locale = useLocale();
  const docs = listContent("docs", locale);
  return (
    <nav className="docs-nav" aria-label={intl.formatMessage({ id: "page.docs.title" })}>
      <p className="docs-nav__heading">
        <FormattedMessage id="page.docs.title" />
      </p>
      <ul>
        <li>
          <LocalizedNavLink to="/docs" end>
            <FormattedMessage id="docs.overview" />
          </LocalizedNavLink>
        </li>
        {docs.map((d) => (
          <li key={d.slug}>
            <LocalizedNavLink to={`/docs/${d.slug}`}>{d.title}</LocalizedNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
