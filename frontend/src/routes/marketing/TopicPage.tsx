// One channel or data-source page (/channels/slack, /data-sources/file/pdf...); the HTTP API's
// page (/channels/api) carries the API reference, from the OpenAPI document the API serves.
import { FormattedMessage } from "react-intl";
import { useRouteDef } from "../../app/handle";
import { LocalizedLink } from "../../components/LocalizedLink";
import { TOPIC_KINDS, type TopicKind } from "../../features/site/topics";
import { ApiReference } from "../../features/apiReference/ApiReference";
import { Hero } from "./Hero";

export default function TopicPage() {
  const def = useRouteDef();
  const kind = (def?.meta?.kind ?? "channels") as TopicKind;
  const topic = def?.meta?.topic ?? "web";
  const { base } = TOPIC_KINDS[kind];
  const icon = TOPIC_KINDS[kind].topics.find((t) => t.key === topic)?.icon;
  return (
    <>
      <Hero
        eyebrow={
          <LocalizedLink to={base}>
            <FormattedMessage id={kind === "channels" ? "page.channels.title" : "page.dataSources.title"} />
          </LocalizedLink>
        }
        title={
          <>
            {icon && <span aria-hidden="true">{icon} </span>}
            <FormattedMessage id={`topic.${kind}.${topic}.title`} />
          </>
        }
        lead={<FormattedMessage id={`topic.${kind}.${topic}.summary`} />}
      />
      <section className="container container--narrow page-section prose">
        <p>
          <FormattedMessage id={`${kind}.howItWorks`} />
        </p>
        {kind === "channels" && topic === "api" && <ApiReference />}
      </section>
    </>
  );
}
