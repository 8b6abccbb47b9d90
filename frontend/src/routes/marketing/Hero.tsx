import type { ReactNode } from "react";
import { FormattedMessage } from "react-intl";
import { buttonClassName } from "../../components/ui";
import { LocalizedLink } from "../../components/LocalizedLink";

/** The top band of a marketing page. Shared so every page looks the same. */
export function Hero({ eyebrow, title, lead, children, cta = true }: { eyebrow?: ReactNode; title: ReactNode; lead?: ReactNode; children?: ReactNode; cta?: boolean }) {
  return (
    <section className="hero">
      <div className="container hero__inner">
        {eyebrow && <p className="hero__eyebrow">{eyebrow}</p>}
        <h1 className="hero__title">{title}</h1>
        {lead && <p className="hero__lead">{lead}</p>}
        {cta && (
          <div className="hero__actions">
            <LocalizedLink to="/app/auth/register" className={buttonClassName({ theme: "primary", size: "lg" })}>
              <FormattedMessage id="cta.start" />
            </LocalizedLink>
            <LocalizedLink to="/gallery" className={buttonClassName({ theme: "secondary", size: "lg" })}>
              <FormattedMessage id="cta.gallery" />
            </LocalizedLink>
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

export function FeatureGrid({ items }: { items: readonly { key: string; icon?: string; title: ReactNode; text: ReactNode; to?: string }[] }) {
  return (
    <ul className="feature-grid">
      {items.map((it) => {
        const body = (
          <>
            {it.icon && <span className="feature-grid__icon" aria-hidden="true">{it.icon}</span>}
            <h3 className="feature-grid__title">{it.title}</h3>
            <p className="feature-grid__text">{it.text}</p>
          </>
        );
        return (
          <li key={it.key} className={`card${it.to ? " card--link" : ""}`}>
            {it.to ? <LocalizedLink to={it.to} className="card__link">{body}</LocalizedLink> : body}
          </li>
        );
      })}
    </ul>
  );
}
