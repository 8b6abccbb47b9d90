// /app/bots/{botId}: the bot at a glance — who it is, how it is used (charts over 7/30/90 days,
// totals, average latency), its latest test run and regressions, its latest conversations and a
// summary of its settings.
import { useState } from "react";
import { FormattedMessage, FormattedNumber, useIntl } from "react-intl";
import { useParams } from "react-router";
import { buttonClassName, EmptyState, Loading, PeriodSwitch } from "../../../components/ui";
import { useBotQuery } from "../../../data/bots/bot-query";
import { STAT_PERIODS, useBotStatsQuery, type StatPeriod } from "../../../data/stats/bot-stats-query";
import { useLatestConversationsQuery } from "../../../data/chats/latest-conversations-query";
import { BotAvatar } from "../../../features/bots/BotAvatar";
import { providerLabelId, VisibilityBadge } from "../../../features/bots/BotFields";
import { languageName } from "../../../i18n/locales";
import { BarChart, type ChartPoint } from "../../../features/charts/BarChart";
import { ConversationList } from "../../../features/conversations/ConversationList";
import { conversationPath } from "../../../features/conversations/filters";
import { useLiveChatList } from "../../../data/chats/use-live-conversations";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { ErrorNote } from "../../../components/ErrorNote";
import { FROM_APP } from "../../../features/site/BackToApp";
import { LatestTestRun } from "../../../features/tests/LatestTestRun";
import "../../../components/panels.css";
import "../../../features/conversations/conversations.css";

export default function BotOverviewPage() {
  const intl = useIntl();
  const botId = useParams().botId!;
  const [days, setDays] = useState<StatPeriod>(30);
  const bot = useBotQuery(botId);
  const stats = useBotStatsQuery(botId, days);
  const latest = useLatestConversationsQuery(botId);
  useLiveChatList(bot.data ? [bot.data.id] : undefined);

  if (bot.isPending) return <Loading />;
  if (bot.isError) return <section className="page-section"><ErrorNote error={bot.error} /></section>;
  if (!bot.data) {
    return (
      <section className="page-section">
        <EmptyState title={<FormattedMessage id="conversations.overview.notFoundTitle" />} description={<FormattedMessage id="conversations.overview.notFoundText" />} />
      </section>
    );
  }
  const b = bot.data;
  const t = (id: string) => intl.formatMessage({ id });
  const points: ChartPoint[] = (stats.data?.points ?? []).map((p) => ({
    label: intl.formatDate(`${p.day}T00:00:00Z`, { month: "short", day: "numeric", timeZone: "UTC" }),
    values: { conversations: p.conversations, messages: p.messages, up: p.up, down: p.down },
  }));
  const periodText = intl.formatMessage({ id: "conversations.overview.days" }, { days });

  return (
    <section className="page-section">
      <header className="overview-head">
        <BotAvatar name={b.name} url={b.avatar_url} large />
        <div className="overview-head__main">
          <h1>{b.name}</h1>
          <div className="bot-card__badges">
            <VisibilityBadge visibility={b.visibility} />
            <span className="badge">{languageName(b.language)}</span>
            <span className="badge">{intl.formatMessage({ id: providerLabelId(b.model_provider) })}</span>
          </div>
        </div>
        <nav className="overview-head__links" aria-label={t("conversations.overview.links")}>
          <LocalizedLink className={buttonClassName({})} to={`/bots/${b.id}?${FROM_APP}`}><FormattedMessage id="conversations.overview.openChat" /></LocalizedLink>
          <LocalizedLink className={buttonClassName({ theme: "white" })} to={`/app/bots/${b.id}/settings`}><FormattedMessage id="conversations.overview.settings" /></LocalizedLink>
          <LocalizedLink className={buttonClassName({ theme: "white" })} to={`/app/bots/${b.id}/data-sources`}><FormattedMessage id="conversations.overview.dataSources" /></LocalizedLink>
          <LocalizedLink className={buttonClassName({ theme: "white" })} to={`/bots/${b.id}/sdk?${FROM_APP}`}><FormattedMessage id="conversations.overview.embed" /></LocalizedLink>
        </nav>
      </header>

      <div className="overview-toolbar">
        <h2 className="sr-only"><FormattedMessage id="conversations.overview.usage" /></h2>
        <p className="form-note"><FormattedMessage id="conversations.overview.usageIntro" values={{ period: periodText }} /></p>
        <PeriodSwitch periods={STAT_PERIODS} value={days} onChange={setDays} label={t("conversations.overview.period")}
          option={(p) => <FormattedMessage id="conversations.overview.days" values={{ days: p }} />} />
      </div>
      {stats.isPending && <Loading />}
      {stats.isError && <ErrorNote error={stats.error} />}
      {stats.data && (
        <>
          <dl className="overview-totals">
            <div className="overview-total"><dt><FormattedMessage id="conversations.overview.totalConversations" /></dt><dd><FormattedNumber value={stats.data.totals.conversations} /></dd></div>
            <div className="overview-total"><dt><FormattedMessage id="conversations.overview.totalMessages" /></dt><dd><FormattedNumber value={stats.data.totals.messages} /></dd></div>
            <div className="overview-total"><dt><FormattedMessage id="conversations.overview.totalFeedback" /></dt><dd><FormattedMessage id="conversations.overview.feedbackValue" values={{ up: stats.data.totals.up, down: stats.data.totals.down }} /></dd></div>
            <div className="overview-total">
              <dt><FormattedMessage id="conversations.overview.avgLatency" /></dt>
              <dd>{stats.data.avgLatencyMs === null ? "—" : <FormattedMessage id="conversations.overview.ms" values={{ ms: stats.data.avgLatencyMs }} />}</dd>
            </div>
          </dl>
          <div className="overview-charts">
            <BarChart title={t("conversations.chart.conversations")} labelHeader={t("conversations.chart.day")} points={points}
              series={[{ key: "conversations", name: t("conversations.chart.conversations"), color: "var(--primary)" }]} />
            <BarChart title={t("conversations.chart.messages")} labelHeader={t("conversations.chart.day")} points={points}
              series={[{ key: "messages", name: t("conversations.chart.messages"), color: "#0ea5e9" }]} />
            <BarChart title={t("conversations.chart.feedback")} labelHeader={t("conversations.chart.day")} points={points}
              series={[{ key: "up", name: t("conversations.chart.up"), color: "#16a34a" }, { key: "down", name: t("conversations.chart.down"), color: "var(--danger)" }]} />
          </div>
        </>
      )}

      <LatestTestRun botId={b.id} className="overview-card" />

      <div className="overview-cols">
        <section className="overview-card" aria-labelledby="overview-latest">
          <h2 id="overview-latest"><FormattedMessage id="conversations.overview.latest" /></h2>
          {latest.isPending && <Loading />}
          {latest.isError && <ErrorNote error={latest.error} />}
          {latest.data && latest.data.length === 0 && <p className="form-note"><FormattedMessage id="conversations.overview.noConversations" /></p>}
          {latest.data && latest.data.length > 0 && (
            <ConversationList label={t("conversations.overview.latest")} items={latest.data} hrefOf={(c) => conversationPath({ filters: { botId: b.id }, chatId: c.id })} />
          )}
          <p><LocalizedLink to={conversationPath({ filters: { botId: b.id } })}><FormattedMessage id="conversations.overview.allConversations" /></LocalizedLink></p>
        </section>
        <section className="overview-card" aria-labelledby="overview-settings">
          <h2 id="overview-settings"><FormattedMessage id="conversations.overview.settingsSummary" /></h2>
          <dl className="overview-settings">
            <dt><FormattedMessage id="conversations.overview.model" /></dt>
            <dd>{intl.formatMessage({ id: providerLabelId(b.model_provider) })}{b.model ? ` · ${b.model}` : ""}</dd>
            <dt><FormattedMessage id="conversations.overview.temperature" /></dt>
            <dd><FormattedNumber value={b.temperature} /></dd>
            <dt><FormattedMessage id="conversations.overview.language" /></dt>
            <dd>{languageName(b.language)}</dd>
            <dt><FormattedMessage id="conversations.overview.gallery" /></dt>
            <dd><FormattedMessage id={b.gallery_listed ? "conversations.overview.yes" : "conversations.overview.no"} /></dd>
            <dt><FormattedMessage id="conversations.overview.suggested" /></dt>
            <dd><FormattedNumber value={b.suggested_questions.length} /></dd>
            {b.description && (<><dt><FormattedMessage id="conversations.overview.description" /></dt><dd>{b.description}</dd></>)}
          </dl>
        </section>
      </div>
    </section>
  );
}
