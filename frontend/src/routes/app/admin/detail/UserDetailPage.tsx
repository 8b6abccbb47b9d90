// /app/admin/dashboard/user/:userId: everything about one user, and the administrator's actions
// on them: ban or unban, send a password reset, move one of their teams to another plan,
// delete the account (typed confirmation). Every action is in the audit log shown below.
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { LocalizedLink, useLocalePath } from "../../../../components/LocalizedLink";
import { useAdminUserQuery } from "../../../../data/admin/detail-queries";
import { isBanned } from "../../../../data/admin/types";
import { ConfirmedAction, TeamPlanControl } from "../../../../features/admin/ActionControls";
import { AdminFrame } from "../../../../features/admin/AdminFrame";
import { AuditLogTable } from "../../../../features/admin/AuditLogTable";
import { adminPaths, DetailList, DetailState, SignInMethods, When, YesNo } from "../../../../features/admin/format";

export default function UserDetailPage() {
  const { userId = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const user = useAdminUserQuery(userId);
  if (user.isPending || user.isError) return <DetailState title="admin.user.title" error={user.error} />;
  const u = user.data;
  const name = u.email ?? intl.formatMessage({ id: "admin.users.guest" });
  const banned = isBanned(u);
  return (
    <AdminFrame
      title={name}
      actions={
        <>
          {banned ? (
            <ConfirmedAction
              key="unban"
              label={<FormattedMessage id="admin.user.unban" />}
              title={<FormattedMessage id="admin.user.unbanTitle" values={{ user: name }} />}
              body={<FormattedMessage id="admin.user.unbanBody" />}
              action={{ kind: "unban", userId: u.id }}
              doneMessage="admin.user.unbanned"
            />
          ) : (
            <ConfirmedAction
              key="ban"
              theme="error"
              label={<FormattedMessage id="admin.user.ban" />}
              title={<FormattedMessage id="admin.user.banTitle" values={{ user: name }} />}
              body={<FormattedMessage id="admin.user.banBody" />}
              action={{ kind: "ban", userId: u.id }}
              doneMessage="admin.user.bannedDone"
            />
          )}
          {u.email && (
            <ConfirmedAction
              label={<FormattedMessage id="admin.user.reset" />}
              title={<FormattedMessage id="admin.user.resetTitle" values={{ user: name }} />}
              body={<FormattedMessage id="admin.user.resetBody" values={{ email: u.email }} />}
              action={{ kind: "reset_password", userId: u.id }}
              doneMessage="admin.user.resetDone"
            />
          )}
          <ConfirmedAction
            theme="delete"
            label={<FormattedMessage id="admin.user.delete" />}
            title={<FormattedMessage id="admin.user.deleteTitle" values={{ user: name }} />}
            body={<FormattedMessage id="admin.user.deleteBody" />}
            typed={u.email ?? u.id}
            action={{ kind: "delete_user", userId: u.id, confirm: u.email ?? u.id }}
            doneMessage="admin.user.deleted"
            onDone={() => navigate(lp("/app/admin/users"))}
          />
        </>
      }
    >
      <div className="admin-detail">
        <section aria-labelledby="user-account">
          <h2 id="user-account">
            <FormattedMessage id="admin.user.account" />
          </h2>
          <dl>
            <dt>
              <FormattedMessage id="admin.col.id" />
            </dt>
            <dd>
              <code>{u.id}</code>
            </dd>
            <dt>
              <FormattedMessage id="admin.col.name" />
            </dt>
            <dd>{u.display_name ?? "—"}</dd>
            <dt>
              <FormattedMessage id="admin.col.status" />
            </dt>
            <dd>
              {banned ? (
                <span className="admin-badge admin-badge--danger">
                  <FormattedMessage
                    id="admin.user.bannedUntil"
                    values={{ until: intl.formatDate(u.banned_until!, { dateStyle: "medium" }) }}
                  />
                </span>
              ) : u.is_anonymous ? (
                <FormattedMessage id="admin.users.guest" />
              ) : (
                <FormattedMessage id="admin.users.active" />
              )}
            </dd>
            <dt>
              <FormattedMessage id="admin.col.signIn" />
            </dt>
            <dd>
              <SignInMethods providers={u.identities.map((i) => i.provider)} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.created" />
            </dt>
            <dd>
              <When value={u.created_at} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.lastSignIn" />
            </dt>
            <dd>
              <When value={u.last_sign_in_at} />
            </dd>
            <dt>
              <FormattedMessage id="admin.user.confirmed" />
            </dt>
            <dd>
              <When value={u.email_confirmed_at} />
            </dd>
            <dt>
              <FormattedMessage id="admin.user.platformAdmin" />
            </dt>
            <dd>
              <YesNo value={u.is_platform_admin} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.chats" />
            </dt>
            <dd>
              <LocalizedLink to={adminPaths.list("chats", { user: u.id })}>{u.chat_count}</LocalizedLink>
            </dd>
          </dl>
        </section>
        <DetailList
          id="user-teams"
          title="admin.col.teams"
          items={u.teams}
          className="admin-team-list"
          render={(t) => (
            <>
              <LocalizedLink to={adminPaths.list("bots", { team: t.id })}>{t.name}</LocalizedLink>{" "}
              <span className="admin-badge">
                <FormattedMessage id={`admin.role.${t.role}`} />
              </span>{" "}
              <FormattedMessage id="admin.user.teamBots" values={{ count: t.bot_count }} />
              <TeamPlanControl teamId={t.id} teamName={t.name} planId={t.plan_id} />
            </>
          )}
        />
        <DetailList
          id="user-chats"
          title="admin.user.recentChats"
          items={u.recent_chats}
          render={(c) => (
            <>
              <LocalizedLink to={adminPaths.bot(c.bot_id!)}>{c.bot_name}</LocalizedLink>:{" "}
              {c.title ?? intl.formatMessage({ id: "admin.chats.untitled" })} (<When value={c.created_at} />)
            </>
          )}
        />
        <section aria-labelledby="user-audit">
          <h2 id="user-audit">
            <FormattedMessage id="admin.detail.audit" />
          </h2>
          <AuditLogTable
            caption={<FormattedMessage id="admin.detail.auditCaption" values={{ target: name }} />}
            rows={u.audit}
            pending={false}
            error={null}
          />
        </section>
      </div>
    </AdminFrame>
  );
}
