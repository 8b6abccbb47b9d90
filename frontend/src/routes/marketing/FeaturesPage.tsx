import { FormattedMessage } from "react-intl";
import { FeatureGrid, Hero } from "./Hero";

const FEATURES = [
  { key: "sources", icon: "≡" },
  { key: "channels", icon: "⇄" },
  { key: "powerUps", icon: "ϟ" },
  { key: "tests", icon: "✓" },
  { key: "languages", icon: "Aa" },
  { key: "teams", icon: "◎" },
] as const;

export default function FeaturesPage() {
  return (
    <>
      <Hero title={<FormattedMessage id="page.features.title" />} lead={<FormattedMessage id="features.lead" />} />
      <section className="container page-section">
        <FeatureGrid
          items={FEATURES.map((f) => ({ key: f.key, icon: f.icon, title: <FormattedMessage id={`features.${f.key}.title`} />, text: <FormattedMessage id={`features.${f.key}.text`} /> }))}
        />
      </section>
    </>
  );
}
