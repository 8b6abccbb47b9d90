import { FormattedMessage, useIntl } from "react-intl";
import { LocalizedLink } from "../components/LocalizedLink";
import { useConsentDialog } from "../features/consent/ConsentBanner";

const COLUMNS = [
  { title: "footer.product", links: [["/features", "nav.features"], ["/models", "nav.models"], ["/channels", "nav.channels"], ["/data-sources", "nav.dataSources"], ["/gallery", "nav.gallery"]] },
  { title: "footer.resources", links: [["/docs", "nav.docs"], ["/blog", "nav.blog"], ["/faq", "nav.faq"], ["/use-cases/author", "page.useCaseAuthor.title"]] },
  { title: "footer.legal", links: [["/terms", "page.legal.terms.title"], ["/privacy", "page.legal.privacy.title"], ["/legal/dpa", "page.legal.dpa.title"], ["/legal/gdpr", "page.legal.gdpr.title"], ["/legal/sub-processors", "page.legal.sub-processors.title"]] },
] as const;

export function SiteFooter() {
  const intl = useIntl();
  const openConsent = useConsentDialog();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div>
          <p className="site-footer__brand">Parley</p>
          <p className="muted">
            <FormattedMessage id="footer.tagline" />
          </p>
        </div>
        {COLUMNS.map((col) => (
          <nav key={col.title} aria-label={intl.formatMessage({ id: col.title })}>
            <h2 className="site-footer__heading">
              <FormattedMessage id={col.title} />
            </h2>
            <ul>
              {col.links.map(([to, id]) => (
                <li key={to}>
                  <LocalizedLink to={to}>
                    <FormattedMessage id={id} />
                  </LocalizedLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="container site-footer__bottom">
        <span>
          <FormattedMessage id="footer.copyright" values={{ year: new Date().getFullYear() }} />
        </span>
        <button type="button" className="link-button" onClick={openConsent}>
          <FormattedMessage id="consent.settings" />
        </button>
      </div>
    </footer>
  );
}
