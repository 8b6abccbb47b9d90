// The team picker shared by the app pages: choosing a team makes it current everywhere.
import { FormattedMessage, useIntl } from "react-intl";
import { LocalizedLink } from "../../components/LocalizedLink";
import { useCurrentTeam } from "./currentTeam";
import "../../components/panels.css";

export function TeamSwitcher({ showManage = true }: { showManage?: boolean }) {
  const intl = useIntl();
  const { teams, team, select } = useCurrentTeam();
  if (teams.isPending) return <div className="team-switcher team-switcher--loading" aria-busy="true" />;
  if (teams.isError) return <p className="team-switcher__error" role="alert"><FormattedMessage id="teams.switcher.error" /></p>;
  const list = teams.data ?? [];
  return (
    <div className="team-switcher">
      <label className="team-switcher__label" htmlFor="team-switcher">
        <FormattedMessage id="teams.switcher.label" />
      </label>
      <select id="team-switcher" className="control control--select team-switcher__select" value={team?.id ?? ""} onChange={(e) => select(e.target.value)}>
        {list.map((t) => (
          <option key={t.id} value={t.id}>
            {t.personal ? intl.formatMessage({ id: "teams.switcher.personal" }, { name: t.name }) : t.name} · {intl.formatMessage({ id: `teams.role.${t.role}` })}
          </option>
        ))}
      </select>
      {showManage && team && !team.personal && (
        <LocalizedLink className="team-switcher__link" to={`/app/teams/${team.id}`}>
          <FormattedMessage id="teams.switcher.manage" />
        </LocalizedLink>
      )}
      {showManage && (
        <LocalizedLink className="team-switcher__link" to="/app/teams/new">
          <FormattedMessage id="teams.switcher.new" />
        </LocalizedLink>
      )}
    </div>
  );
}
