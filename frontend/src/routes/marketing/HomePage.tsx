import { FormattedMessage, useIntl } from "react-intl";
import { CHANNELS, DATA_SOURCES } from "../../features/site/topics";
import { FeatureGrid, Hero } from "./Hero";

const STEPS = ["connect", "train", "publish"] as const;

export default function HomePage() {
  const intl = useIntl();
  return (
    <>
      <Hero eyebrow={<FormattedMessage id="home.eyebrow" />} title={<FormattedMessage id="home.title" />} lead={<FormattedMessage id="home.lead" />}>
        <p className="hero__stats">
          <FormattedMessage
            id="home.stats"
            values={{ languages: intl.formatNumber(10), channels: intl.formatNumber(CHANNELS.length), sources: intl.formatNumber(DATA_SOURCES.length) }}
          />
        </p>
      </Hero>
      <section className="container page-section">
        <h2 className="section-title">
          <FormattedMessage id="home.how.title" />
        </h2>
        <FeatureGrid
          items={STEPS.map((s, i) => ({
            key: s,
            icon: String(i + 1),
            title: <FormattedMessage id={`home.how.${s}.title`} />,
            text: <FormattedMessage id={`home.how.${s}.text`} />,
          }))}
        />
      </section>
      <section className="container page-section">
        <h2 className="section-title">
          <FormattedMessage id="page.channels.title" />
        </h2>
        <FeatureGrid
          items={CHANNELS.map((c) => ({
            key: c.key,
            icon: c.icon,
            title: <FormattedMessage id={`topic.channels.${c.key}.title`} />,
            text: <FormattedMessage id={`topic.channels.${c.key}.summary`} />,
            to: `/channels/${c.path}`,
          }))}
        />
      </section>
    </>
  );
}
