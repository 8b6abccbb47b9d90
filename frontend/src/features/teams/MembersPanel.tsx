// Members and their roles. Owners change roles, transfer ownership and remove members;
// admins see the list read-only. Everyone may leave but a sole owner (the database refuses that too).
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { Button, Loading } from "../../components/ui";
import { useChangeMemberRoleMutation } from "../../data/teams/member-role-mutation";
import { useRemoveMemberMutation } from "../../data/teams/member-remove-mutation";
import { useTransferOwnershipMutation } from "../../data/teams/ownership-transfer-mutation";
import { useTeamMembersQuery, type TeamMember } from "../../data/teams/members-query";
import type { MyTeam, TeamRole } from "../../data/teams/my-teams-query";
import { useLocalePath } from "../../components/LocalizedLink";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import { avatarSrc } from "../../lib/avatars";

type Pending = { kind: "remove" | "transfer" | "leave"; member: TeamMember } | null;

export function MembersPanel({ team }: { team: MyTeam }) {
  const intl = useIntl();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const members = useTeamMembersQuery(team.id);
  const changeRole = useChangeMemberRoleMutation();
  const remove = useRemoveMemberMutation();
  const transfer = useTransferOwnershipMutation();
  const [pending, setPending] = useState<Pending>(null);
  const isOwner = team.role === "owner";
  // The database refuses the last owner's leaving; the screen does not offer it.
  const soleOwner = (m: TeamMember) => m.role === "owner" && (members.data ?? []).filter((x) => x.role === "owner").length === 1;
  const name = (m: TeamMember) => m.display_name || m.email || m.user_id;

  const confirm = () => {
    if (!pending) return;
    const v = { teamId: team.id, userId: pending.member.user_id };
    const done = { onSuccess: () => setPending(null) };
    if (pending.kind === "transfer") transfer.mutate(v, done);
    else
      remove.mutate(v, {
        onSuccess: () => {
          setPending(null);
          if (pending.kind === "leave") navigate(lp("/app/bots"));
        },
      });
  };

  return (
    <section className="panel" aria-labelledby="members-title">
      <h2 id="members-title"><FormattedMessage id="teams.members.title" /></h2>
      <p className="panel__intro">
        <FormattedMessage id={isOwner ? "teams.members.introOwner" : "teams.members.introAdmin"} />
      </p>
      {members.isPending && <Loading />}
      {members.isError && <ErrorNote error={members.error} />}
      {members.data && (
        <ul className="rows" aria-label={intl.formatMessage({ id: "teams.members.title" })}>
          {members.data.map((m) => (
            <li key={m.user_id} data-member={m.email ?? m.user_id}>
              {m.avatar_url ? <img className="avatar" src={avatarSrc(m.avatar_url)} alt="" /> : <span className="avatar" aria-hidden="true">{name(m).slice(0, 1).toUpperCase()}</span>}
              <div className="rows__main">
                <div className="rows__title">
                  {name(m)} {m.is_current_user && <span className="badge"><FormattedMessage id="teams.members.you" /></span>}
                </div>
                {m.display_name && <div className="rows__meta">{m.email}</div>}
              </div>
              <div className="rows__actions">
                {isOwner && !m.is_current_user ? (
                  <>
                    <label className="sr-only" htmlFor={`role-${m.user_id}`}>
                      <FormattedMessage id="teams.members.roleFor" values={{ name: name(m) }} />
                    </label>
                    <select
                      id={`role-${m.user_id}`}
                      className="control control--select"
                      value={m.role}
                      disabled={changeRole.isPending}
                      onChange={(e) => changeRole.mutate({ teamId: team.id, userId: m.user_id, role: e.target.value as TeamRole })}
                    >
                      <option value="owner">{intl.formatMessage({ id: "teams.role.owner" })}</option>
                      <option value="admin">{intl.formatMessage({ id: "teams.role.admin" })}</option>
                    </select>
                    {m.role !== "owner" && (
                      <Button size="sm" theme="gray" onClick={() => setPending({ kind: "transfer", member: m })}>
                        <FormattedMessage id="teams.members.transfer" />
                      </Button>
                    )}
                    <Button size="sm" theme="delete" onClick={() => setPending({ kind: "remove", member: m })}>
                      <FormattedMessage id="teams.members.remove" />
                    </Button>
                  </>
                ) : (
                  <span className={`badge badge--${m.role}`}>{intl.formatMessage({ id: `teams.role.${m.role}` })}</span>
                )}
                {m.is_current_user && !team.personal && soleOwner(m) && (
                  <p className="muted team-members__hint">
                    <FormattedMessage id="teams.members.soleOwner" />
                  </p>
                )}
                {m.is_current_user && !team.personal && !soleOwner(m) && (
                  <Button size="sm" theme="gray" onClick={() => setPending({ kind: "leave", member: m })}>
                    <FormattedMessage id="teams.members.leave" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={changeRole.error} />
      <ConfirmDialog
        open={!!pending}
        title={pending && <FormattedMessage id={`teams.members.confirm.${pending.kind}.title`} />}
        body={pending && <FormattedMessage id={`teams.members.confirm.${pending.kind}.body`} values={{ name: name(pending.member), team: team.name }} />}
        confirmLabel={pending && <FormattedMessage id={`teams.members.confirm.${pending.kind}.action`} />}
        busy={remove.isPending || transfer.isPending}
        error={<ErrorNote error={remove.error ?? transfer.error} />}
        onConfirm={confirm}
        onClose={() => {
          remove.reset();
          transfer.reset();
          setPending(null);
        }}
      />
    </section>
  );
}
