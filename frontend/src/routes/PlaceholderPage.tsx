// Stand-in for the signed-in, bot and admin screens until their issues build them: it
// shows the route's title so the frame (layout, guard, language) can be checked.
import { FormattedMessage, useIntl } from "react-intl";
import { useParams } from "react-router";
import { useRouteDef } from "../app/handle";
import { EmptyState } from "../components/ui";

export default function PlaceholderPage() {
  const intl = useIntl();
  const def = useRouteDef();
  const params = useParams();
  return (
    <section className="page-section placeholder-page" data-route-id={def?.id}>
      <h1>{intl.formatMessage({ id: def?.title ?? "page.home.title" })}</h1>
      <EmptyState title={<FormattedMessage id="placeholder.title" />} description={<FormattedMessage id="placeholder.text" values={{ params: Object.values(params).filter(Boolean).join(" / ") || "—" }} />} />
    </section>
  );
}
