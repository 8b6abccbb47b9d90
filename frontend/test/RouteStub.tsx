// A stand-in screen for test routes: the route's title as its heading, so the frame (layout,
// guard, language) can be checked without a real screen's data.
import { useIntl } from "react-intl";
import { useRouteDef } from "../src/app/handle";

export default function RouteStub() {
  const intl = useIntl();
  const def = useRouteDef();
  return (
    <section className="page-section" data-route-id={def?.id}>
      <h1>{intl.formatMessage({ id: def?.title ?? "page.home.title" })}</h1>
    </section>
  );
}
