// /channels and /data-sources: one card per channel or data source.
import { FormattedMessage, useIntl } from "react-intl";
import { useRouteDef } from "../../app/handle";
import { TOPIC_KINDS, type TopicKind } from "../../features/site/topics";
import { FeatureGrid, Hero } from "./Hero";

export default function TopicIndexPage() {
  const intl = useIntl();
  const def = useRouteDef();
  const kind = (def?.meta?.kind ?? "channels") as TopicKind;
  const { base, topics } = TOPIC_KINDS[kind];
  return (
    <>
      <Hero title={intl.formatMessage({ id: def?.title ?? "page.channels.title" })} lead={<FormattedMessage id={`${kind}.lead`} />} cta={false} />
      <section className="container page-section">
        <FeatureGrid
          items={topics.map((t) => ({
            key: t.key,
            icon: t.icon,
            title: <FormattedMessage id={`topic.${kind}.${t.key}.title`} />,
            text: <FormattedMessage id={`topic.${kind}.${t.key}.summary`} />,
            to: `${base}/${t.path}`,
          }))}
        />
      </section>
    </>
  );
}
