// /app/bots: the current team's bots, searchable, with an empty state leading to the wizard.
import { useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { buttonClassName, EmptyState, Input, Loading } from "../../../components/ui";
import { useTeamBotsQuery } from "../../../data/bots/team-bots-query";
import { BotAvatar } from "../../../features/bots/BotAvatar";
import { providerLabelId, VisibilityBadge } from "../../../features/bots/BotFields";
import { languageName } from "../../../i18n/locales";
import { useCurrentTeam } from "../../../features/teams/currentTeam";
import { ErrorNote } from "../../../components/ErrorNote";
import { TeamSwitcher } from "../../../features/teams/TeamSwitcher";
import { LocalizedLink } from "../../../components/LocalizedLink";
import "../../../components/panels.css";

export default function BotsPage() {
  const intl = useIntl();
  const { teams, team } = useCurrentTeam();
  const bots = useTeamBotsQuery(team?.id);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    return (bots.data ?? []).filter((b) => !q || b.name.toLocaleLowerCase().includes(q) || (b.description ?? "").toLocaleLowerCase().includes(q));
  }, [bots.data, query]);

  return (
    <section className="page-section">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="bots.list.title" /></h1>
          <p className="page-head__sub"><FormattedMessage id="bots.list.intro" /></p>
        </div>
        <LocalizedLink className={buttonClassName({})} to="/app/bots/wizard">
          <FormattedMessage id="bots.list.create" />
        </LocalizedLink>
      </div>
      <div className="bots-toolbar">
        <TeamSwitcher />
        {(bots.data?.length ?? 0) > 0 && (
          <Input type="search" label={intl.formatMessage({ id: "bots.list.search" })} value={query} onChange={(e) => setQuery(e.target.value)} />
        )}
      </div>
      {(teams.isPending || (team && bots.isPending)) && <Loading />}
      {teams.isError && <ErrorNote error={teams.error} />}
      {bots.isError && <ErrorNote error={bots.error} />}
      {bots.data && bots.data.length === 0 && (
        <EmptyState
          title={<FormattedMessage id="bots.list.emptyTitle" />}
          description={<FormattedMessage id="bots.list.emptyText" />}
          action={<LocalizedLink className={buttonClassName({})} to="/app/bots/wizard"><FormattedMessage id="bots.list.create" /></LocalizedLink>}
        />
      )}
      {bots.data && bots.data.length > 0 && shown.length === 0 && (
        <p className="form-note" role="status"><FormattedMessage id="bots.list.noMatch" values={{ query: query.trim() }} /></p>
      )}
      {shown.length > 0 && (
        <ul className="bot-grid" aria-label={intl.formatMessage({ id: "bots.list.title" })}>
          {shown.map((b) => (
            <li key={b.id}>
              <LocalizedLink className="bot-card" to={`/app/bots/${b.id}`}>
                <div className="bot-card__head">
                  <BotAvatar name={b.name} url={b.avatar_url} />
                  <h2 className="bot-card__name">{b.name}</h2>
                </div>
                {b.description && <p className="bot-card__desc">{b.description}</p>}
                <div className="bot-card__badges">
                  <VisibilityBadge visibility={b.visibility} />
                  {b.gallery_listed && <span className="badge badge--public"><FormattedMessage id="bots.list.inGallery" /></span>}
                  <span className="badge">{languageName(b.language)}</span>
                  <span className="badge">{intl.formatMessage({ id: providerLabelId(b.model_provider) })}</span>
                </div>
              </LocalizedLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
