// /app/bots/:botId/data-sources/new — type picker and a form per type.
import { FormattedMessage } from "react-intl";
import { useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import { DATA_SOURCE_TYPES, type DataSourceType } from "../../../data/dataSources/types";
import { NewSourceForm } from "../../../features/knowledge/NewSourceForm";
import { sourcePath, sourcesPath, SourcesCrumbs } from "../../../features/knowledge/SourceParts";
import { useLocalePath } from "../../../components/LocalizedLink";
import "../../../features/knowledge/knowledge.css";

export default function NewDataSourcePage() {
  const { botId = "" } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const t = params.get("type");
  const initialType = DATA_SOURCE_TYPES.includes(t as DataSourceType) ? (t as DataSourceType) : undefined;
  // The auth area runs Notion's OAuth (notion-connect) and sends the owner back here with
  // ?notion_connection=<id>; the Notion token itself stays on the server.
  const back = `${location.pathname}?type=notion`;
  const notionConnectHref = `${lp("/app/auth/providers/notion")}?connect=1&redirect=${encodeURIComponent(back)}`;
  const notionConnectionId = params.get("notion_connection");
  return (
    <div className="ks-page">
      <SourcesCrumbs botId={botId} />
      <header className="ks-head">
        <h1>
          <FormattedMessage id="sources.new.title" />
        </h1>
      </header>
      <div className="ks-card">
        <NewSourceForm
          botId={botId}
          initialType={initialType}
          notionConnectHref={notionConnectHref}
          notionConnectionId={notionConnectionId}
          onCancel={() => void navigate(lp(sourcesPath(botId)))}
          onCreated={(id) => void navigate(lp(sourcePath(botId, id)))}
        />
      </div>
    </div>
  );
}
