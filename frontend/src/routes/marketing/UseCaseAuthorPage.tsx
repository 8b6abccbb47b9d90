import { FormattedMessage } from "react-intl";
import { FeatureGrid, Hero } from "./Hero";

const POINTS = ["readers", "sources", "share"] as const;

export default function UseCaseAuthorPage() {
  return (
    <>
      <Hero eyebrow={<FormattedMessage id="useCase.eyebrow" />} title={<FormattedMessage id="page.useCaseAuthor.title" />} lead={<FormattedMessage id="useCase.author.lead" />} />
      <section className="container page-section">
        <FeatureGrid items={POINTS.map((p) => ({ key: p, title: <FormattedMessage id={`useCase.author.${p}.title`} />, text: <FormattedMessage id={`useCase.author.${p}.text`} /> }))} />
      </section>
    </>
  );
}
