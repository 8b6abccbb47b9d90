// Owners invite by email (the team-invite function sends auth's mail) and manage pending
// invitations: resend (a new link replaces the old one) or revoke.
import { useState } from "react";
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Loading, Select } from "../../components/ui";
import { usePendingInvitationsQuery } from "../../data/invitations/pending-invitations-query";
import { useRevokeInvitationMutation } from "../../data/invitations/invitation-revoke-mutation";
import { useSendInvitationMutation } from "../../data/invitations/invitation-send-mutation";
import type { MyTeam, TeamRole } from "../../data/teams/my-teams-query";
import { useLocale } from "../../components/LocalizedLink";
import { ErrorNote } from "../../components/ErrorNote";

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function InvitePanel({ team }: { team: MyTeam }) {
  const intl = useIntl();
  const locale = useLocale();
  const pending = usePendingInvitationsQuery(team.id);
  const send = useSendInvitationMutation();
  const revoke = useRevokeInvitationMutation();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<TeamRole>("admin");
  const [touched, setTouched] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const invalid = !EMAIL.test(email.trim());

  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title"><FormattedMessage id="teams.invite.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="teams.invite.intro" /></p>
      <form
        noValidate
        className="form-stack"
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          setSentTo(null);
          if (invalid) return;
          const to = email.trim().toLowerCase();
          send.mutate(
            { teamId: team.id, email: to, role, locale },
            {
              onSuccess: () => {
                setSentTo(to);
                setEmail("");
                setTouched(false);
              },
            },
          );
        }}
      >
        <div className="form-row">
          <Input
            type="email"
            label={intl.formatMessage({ id: "teams.invite.email" })}
            value={email}
            autoComplete="off"
            onChange={(e) => setEmail(e.target.value)}
            error={touched && invalid ? intl.formatMessage({ id: "teams.invite.emailInvalid" }) : undefined}
          />
          <Select
            label={intl.formatMessage({ id: "teams.invite.role" })}
            value={role}
            onChange={(e) => setRole(e.target.value as TeamRole)}
            options={[
              { value: "admin", label: intl.formatMessage({ id: "teams.role.admin" }) },
              { value: "owner", label: intl.formatMessage({ id: "teams.role.owner" }) },
            ]}
          />
        </div>
        <ErrorNote error={send.error} />
        {sentTo && <p className="form-success" role="status"><FormattedMessage id="teams.invite.sent" values={{ email: sentTo }} /></p>}
        <div className="form-actions">
          <Button type="submit" loading={send.isPending}>
            <FormattedMessage id="teams.invite.submit" />
          </Button>
        </div>
      </form>

      <h3 className="form-note" style={{ marginTop: "1.25rem" }}><FormattedMessage id="teams.invite.pending" /></h3>
      {pending.isPending && <Loading />}
      {pending.isError && <ErrorNote error={pending.error} />}
      {pending.data && pending.data.length === 0 && <p className="form-note"><FormattedMessage id="teams.invite.none" /></p>}
      {pending.data && pending.data.length > 0 && (
        <ul className="rows">
          {pending.data.map((inv) => (
            <li key={inv.id} data-invitation={inv.email}>
              <div className="rows__main">
                <div className="rows__title">{inv.email}</div>
                <div className="rows__meta">
                  {intl.formatMessage({ id: `teams.role.${inv.role}` })} ·{" "}
                  <FormattedMessage id="teams.invite.expires" values={{ date: <FormattedDate key="date" value={inv.expires_at} dateStyle="medium" /> }} />
                </div>
              </div>
              <div className="rows__actions">
                <Button size="sm" theme="gray" loading={send.isPending && send.variables?.email === inv.email} onClick={() => send.mutate({ teamId: team.id, email: inv.email, role: inv.role, locale }, { onSuccess: () => setSentTo(inv.email) })}>
                  <FormattedMessage id="teams.invite.resend" />
                </Button>
                <Button size="sm" theme="delete" loading={revoke.isPending && revoke.variables?.id === inv.id} onClick={() => revoke.mutate({ teamId: team.id, id: inv.id })}>
                  <FormattedMessage id="teams.invite.revoke" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={revoke.error} />
    </section>
  );
}
