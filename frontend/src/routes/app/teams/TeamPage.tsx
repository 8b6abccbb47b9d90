// /app/teams/{teamId}: the team's name, members, invitations, provider keys, leave and delete.
// Owner-only parts are hidden from admins; the database refuses them anyway.
import { useEffect, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { Button, buttonClassName, EmptyState, Input, Loading } from "../../../components/ui";
import { useMyTeamsQuery, type MyTeam } from "../../../data/teams/my-teams-query";
import { useDeleteTeamMutation } from "../../../data/teams/team-delete-mutation";
import { useRenameTeamMutation } from "../../../data/teams/team-rename-mutation";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { setCurrentTeamId } from "../../../features/teams/currentTeam";
import { ErrorNote } from "../../../components/ErrorNote";
import { InvitePanel } from "../../../features/teams/InvitePanel";
import { MembersPanel } from "../../../features/teams/MembersPanel";
import { ProviderKeysPanel } from "../../../features/teams/ProviderKeysPanel";
import { TeamSwitcher } from "../../../features/teams/TeamSwitcher";
import { LocalizedLink, useLocalePath } from "../../../components/LocalizedLink";
import "../../../components/panels.css";

export default function TeamPage() {
  const { teamId = "" } = useParams();
  const teams = useMyTeamsQuery();
  const team = teams.data?.find((t) => t.id === teamId);
  useEffect(() => {
    if (team) setCurrentTeamId(team.id);
  }, [team]);

  if (teams.isPending) return <Loading />;
  if (teams.isError) return <section className="page-section"><ErrorNote error={teams.error} /></section>;
  if (!team) {
    return (
      <section className="page-section">
        <EmptyState
          title={<FormattedMessage id="teams.detail.notFound" />}
          description={<FormattedMessage id="teams.detail.notFoundText" />}
          action={<LocalizedLink className={buttonClassName({})} to="/app/bots"><FormattedMessage id="teams.detail.backToBots" /></LocalizedLink>}
        />
      </section>
    );
  }
  const isOwner = team.role === "owner";
  return (
    <section className="page-section">
      <div className="page-head">
        <div>
          <h1>{team.name}</h1>
          <p className="page-head__sub">
            <span className={`badge badge--${team.role}`}><FormattedMessage id={`teams.role.${team.role}`} /></span>{" "}
            {team.personal && <FormattedMessage id="teams.detail.personalNote" />}
          </p>
        </div>
        <TeamSwitcher />
      </div>
      {isOwner && <RenamePanel team={team} />}
      <MembersPanel team={team} />
      {isOwner && !team.personal && <InvitePanel team={team} />}
      <ProviderKeysPanel team={team} />
      {isOwner && !team.personal && <DeletePanel team={team} />}
    </section>
  );
}

function RenamePanel({ team }: { team: MyTeam }) {
  const intl = useIntl();
  const rename = useRenameTeamMutation();
  const [name, setName] = useState(team.name);
  const [saved, setSaved] = useState(false);
  const invalid = name.trim().length < 1 || name.trim().length > 100;
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="rename-title"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        if (!invalid) rename.mutate({ teamId: team.id, name: name.trim() }, { onSuccess: () => setSaved(true) });
      }}
    >
      <h2 id="rename-title"><FormattedMessage id="teams.rename.title" /></h2>
      <Input label={intl.formatMessage({ id: "teams.new.name" })} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} error={invalid ? intl.formatMessage({ id: "teams.new.nameRequired" }) : undefined} />
      <ErrorNote error={rename.error} />
      {saved && <p className="form-success" role="status"><FormattedMessage id="teams.common.saved" /></p>}
      <div className="form-actions">
        <Button type="submit" loading={rename.isPending} disabled={invalid}><FormattedMessage id="teams.common.save" /></Button>
      </div>
    </form>
  );
}

function DeletePanel({ team }: { team: MyTeam }) {
  const del = useDeleteTeamMutation();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [open, setOpen] = useState(false);
  return (
    <section className="panel panel--danger" aria-labelledby="delete-team-title">
      <h2 id="delete-team-title"><FormattedMessage id="teams.delete.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="teams.delete.intro" /></p>
      <Button theme="delete" onClick={() => setOpen(true)}><FormattedMessage id="teams.delete.action" /></Button>
      <ConfirmDialog
        open={open}
        typed={team.name}
        title={<FormattedMessage id="teams.delete.title" />}
        body={<FormattedMessage id="teams.delete.confirm" values={{ team: team.name }} />}
        confirmLabel={<FormattedMessage id="teams.delete.action" />}
        busy={del.isPending}
        error={<ErrorNote error={del.error} />}
        onConfirm={() => del.mutate(team.id, { onSuccess: () => navigate(lp("/app/bots")) })}
        onClose={() => { del.reset(); setOpen(false); }}
      />
    </section>
  );
}
