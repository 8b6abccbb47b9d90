import { FormattedMessage } from "react-intl";
import { Hero } from "./Hero";

export const FAQ_KEYS = ["what", "data", "languages", "selfHost", "models", "privacy"] as const;

export default function FaqPage() {
  return (
    <>
      <Hero title={<FormattedMessage id="page.faq.title" />} lead={<FormattedMessage id="faq.lead" />} cta={false} />
      <section className="container container--narrow page-section">
        {FAQ_KEYS.map((k) => (
          <details key={k} className="faq-item">
            <summary>
              <FormattedMessage id={`faq.${k}.q`} />
            </summary>
            <p>
              <FormattedMessage id={`faq.${k}.a`} />
            </p>
          </details>
        ))}
      </section>
    </>
  );
}
