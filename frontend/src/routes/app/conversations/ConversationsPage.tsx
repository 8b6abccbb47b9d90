// /app/conversations/{slug}: the conversations of the current team's bots with filters in the
// URL, and the open conversation beside the list; both update live.
import { useEffect, useMemo } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { EmptyState, Loading } from "../../../components/ui";
import { useTeamBotsQuery } from "../../../data/bots/team-bots-query";
import { useConversationsQuery, useNeedsHumanCountQuery } from "../../../data/chats/conversations-query";
import { ConversationFilters } from "../../../features/conversations/ConversationFilters";
import { ConversationList } from "../../../features/conversations/ConversationList";
import { ConversationView } from "../../../features/conversations/ConversationView";
import { AddTestCaseButton } from "../../../features/tests/AddTestCaseButton";
import { conversationPath, parseConversationLocation, type ConversationFilters as Filters } from "../../../features/conversations/filters";
import { useLiveChatList } from "../../../data/chats/use-live-conversations";
import { useLocalePath } from "../../../components/LocalizedLink";
import { setCurrentTeamId, useCurrentTeam } from "../../../features/teams/currentTeam";
import { ErrorNote } from "../../../components/ErrorNote";
import { TeamSwitcher } from "../../../features/teams/TeamSwitcher";
import "../../../components/panels.css";
import "../../../features/conversations/conversations.css";

export default function ConversationsPage() {
  const intl = useIntl();
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const { teams, team } = useCurrentTeam();

  // ?team= picks the team (links from elsewhere); the switcher's choice is shared through localStorage.
  const teamParam = search.get("team");
  useEffect(() => {
    if (teamParam && teams.data?.some((t) => t.id === teamParam)) setCurrentTeamId(teamParam);
  }, [teamParam, teams.data]);

  const { filters, chatId } = useMemo(() => parseConversationLocation(params["*"] ?? "", search), [params, search]);
  const bots = useTeamBotsQuery(team?.id);
  const botIds = useMemo(() => bots.data?.map((b) => b.id), [bots.data]);
  const list = useConversationsQuery(team?.id, botIds, filters);
  const needsHuman = useNeedsHumanCountQuery(team?.id, botIds);
  useLiveChatList(botIds);

  const go = (f: Filters, chat?: string) => navigate(lp(conversationPath({ filters: f, chatId: chat })));

  return (
    <section className="page-section conv-page">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="conversations.page.title" /></h1>
          <p className="page-head__sub"><FormattedMessage id="conversations.page.intro" /></p>
        </div>
        <TeamSwitcher />
      </div>
      <ConversationFilters filters={filters} bots={bots.data ?? []} onChange={(f) => go(f, chatId)} needsHumanCount={needsHuman.data} />
      {teams.isError && <ErrorNote error={teams.error} />}
      {bots.isError && <ErrorNote error={bots.error} />}
      <div className="conv-layout">
        <div className="conv-layout__list">
          {(teams.isPending || (team && (bots.isPending || list.isPending))) && <Loading />}
          {list.isError && <ErrorNote error={list.error} />}
          {teams.data && !team && (
            <EmptyState title={<FormattedMessage id="conversations.page.noTeamTitle" />} description={<FormattedMessage id="conversations.page.noTeamText" />} />
          )}
          {list.data && list.data.length === 0 && (
            <EmptyState
              title={<FormattedMessage id={Object.keys(filters).length ? "conversations.list.noMatchTitle" : "conversations.list.emptyTitle"} />}
              description={<FormattedMessage id={Object.keys(filters).length ? "conversations.list.noMatchText" : "conversations.list.emptyText"} />}
            />
          )}
          {list.data && list.data.length > 0 && (
            <ConversationList
              label={intl.formatMessage({ id: "conversations.list.label" })}
              items={list.data}
              activeId={chatId}
              hrefOf={(c) => conversationPath({ filters, chatId: c.id })}
            />
          )}
        </div>
        <div className="conv-layout__view">
          {chatId ? (
            <ConversationView chatId={chatId} canDelete={team?.role === "owner" || team?.role === "admin"} onDeleted={() => go(filters)}
              messageActions={(m) => <AddTestCaseButton botId={m.bot_id} messageId={m.id} answer={m.content} />} />
          ) : (
            <p className="conv-layout__hint form-note"><FormattedMessage id="conversations.view.pick" /></p>
          )}
        </div>
      </div>
    </section>
  );
}
