// A way back into the app from the pages a team opens out of it (the hosted chat page, the
// embed-code page): those pages have no app layout, so without this they are dead ends.
// Shown when the app linked here (`?from=app`), so visitors of a shared link do not see it.
import { FormattedMessage } from "react-intl";
import { useSearchParams } from "react-router";
import { LocalizedLink } from "../../components/LocalizedLink";
import "./site-nav.css";

/** The query string the app adds to links into such pages. */
export const FROM_APP = "from=app";

export function BackToApp({ botId }: { botId: string }) {
  const [params] = useSearchParams();
  if (params.get("from") !== "app") return null;
  return (
    <nav className="back-to-app" aria-label="Parley">
      <LocalizedLink to={`/app/bots/${botId}`}>
        <span aria-hidden="true">← </span>
        <FormattedMessage id="nav.backToBot" />
      </LocalizedLink>
    </nav>
  );
}
