// /app/bots/:botId/data-source/:dataSourceId/settings[/tab] — tabs in the URL, so each one
// can be linked to and the browser's back button moves between them.
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { buttonClassName, Tabs } from "../../../components/ui";
import { useRouteDef } from "../../../app/handle";
import { useDataSourceQuery } from "../../../data/dataSources/data-source-query";
import { useLiveJobs } from "../../../data/ingestionJobs/use-live-jobs";
import { settingsPath, SourceHeader, sourcePath } from "../../../features/knowledge/SourceParts";
import { ContentTab, DocumentsTab, GeneralTab, ScrapingTab, SyncingTab } from "../../../features/knowledge/SettingsTabs";
import { LocalizedLink, useLocalePath } from "../../../components/LocalizedLink";
import { sourceLoadState } from "../../../features/knowledge/SourceLoadState";
import "../../../features/knowledge/knowledge.css";

export default function DataSourceSettingsPage() {
  const { botId = "", dataSourceId = "" } = useParams();
  const def = useRouteDef();
  const intl = useIntl();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const source = useDataSourceQuery(dataSourceId);
  useLiveJobs(botId);
  const pending = sourceLoadState(source, botId);
  if (pending || !source.data) return pending;
  const s = source.data;
  const tabs = [
    { key: "content", panel: <ContentTab source={s} /> },
    { key: "general", panel: <GeneralTab source={s} /> },
    { key: "syncing", panel: <SyncingTab source={s} /> },
    ...(s.type === "web" ? [{ key: "scraping", panel: <ScrapingTab source={s} /> }] : []),
    { key: "documents", panel: <DocumentsTab source={s} /> },
  ].map((t) => ({ ...t, label: <FormattedMessage id={`sources.tab.${t.key}`} /> }));
  const requested = def?.meta?.tab ?? "content";
  const value = tabs.some((t) => t.key === requested) ? requested : "content";
  return (
    <div className="ks-page">
      <SourceHeader source={s}>
        <LocalizedLink className={buttonClassName({ size: "sm", theme: "gray" })} to={sourcePath(botId, s.id)}>
          <FormattedMessage id="sources.detail.overview" />
        </LocalizedLink>
      </SourceHeader>
      <Tabs items={tabs} value={value} label={intl.formatMessage({ id: "sources.detail.settings" })} onChange={(key) => void navigate(lp(settingsPath(botId, s.id, key)), { replace: true })} />
    </div>
  );
}
