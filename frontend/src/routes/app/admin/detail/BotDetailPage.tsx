// /app/admin/dashboard/bot/:botId: everything about one bot, and the administrator's actions:
// unlist it from the gallery, move its team to another plan, delete it (typed confirmation).
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { LocalizedLink, useLocalePath } from "../../../../components/LocalizedLink";
import { useAdminBotQuery } from "../../../../data/admin/detail-queries";
import { ConfirmedAction, TeamPlanControl } from "../../../../features/admin/ActionControls";
import { AdminFrame } from "../../../../features/admin/AdminFrame";
import { languageName } from "../../../../i18n/locales";
import { AuditLogTable } from "../../../../features/admin/AuditLogTable";
import {
  adminPaths,
  DetailList,
  DetailState,
  PlanName,
  UserLink,
  When,
  YesNo,
} from "../../../../features/admin/format";

export default function BotDetailPage() {
  const { botId = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const bot = useAdminBotQuery(botId);
  if (bot.isPending || bot.isError) return <DetailState title="admin.bot.title" error={bot.error} />;
  const b = bot.data;
  return (
    <AdminFrame
      title={b.name}
      actions={
        <>
          {b.gallery_listed && (
            <ConfirmedAction
              label={<FormattedMessage id="admin.bot.unlist" />}
              title={<FormattedMessage id="admin.bot.unlistTitle" values={{ bot: b.name }} />}
              body={<FormattedMessage id="admin.bot.unlistBody" />}
              action={{ kind: "unlist_bot", botId: b.id }}
              doneMessage="admin.bot.unlisted"
            />
          )}
          <ConfirmedAction
            theme="delete"
            label={<FormattedMessage id="admin.bot.delete" />}
            title={<FormattedMessage id="admin.bot.deleteTitle" values={{ bot: b.name }} />}
            body={<FormattedMessage id="admin.bot.deleteBody" />}
            typed={b.name}
            action={{ kind: "delete_bot", botId: b.id }}
            doneMessage="admin.bot.deleted"
            onDone={() => navigate(lp("/app/admin/bots"))}
          />
        </>
      }
    >
      <div className="admin-detail">
        <section aria-labelledby="bot-facts">
          <h2 id="bot-facts">
            <FormattedMessage id="admin.bot.facts" />
          </h2>
          <dl>
            <dt>
              <FormattedMessage id="admin.col.id" />
            </dt>
            <dd>
              <code>{b.id}</code>
            </dd>
            <dt>
              <FormattedMessage id="admin.col.team" />
            </dt>
            <dd>
              <LocalizedLink to={adminPaths.list("bots", { team: b.team.id })}>{b.team.name}</LocalizedLink> (
              <PlanName id={b.team.plan_id} />)
            </dd>
            <dt>
              <FormattedMessage id="admin.col.visibility" />
            </dt>
            <dd>
              <FormattedMessage id={`admin.visibility.${b.visibility}`} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.listed" />
            </dt>
            <dd>
              <YesNo value={b.gallery_listed} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.provider" />
            </dt>
            <dd>
              {b.model_provider}
              {b.model ? ` / ${b.model}` : ""}
            </dd>
            <dt>
              <FormattedMessage id="admin.bot.language" />
            </dt>
            <dd>{languageName(b.language)}</dd>
            <dt>
              <FormattedMessage id="admin.bot.creator" />
            </dt>
            <dd>
              <UserLink id={b.created_by?.id ?? null} email={b.created_by?.email ?? null} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.created" />
            </dt>
            <dd>
              <When value={b.created_at} />
            </dd>
            <dt>
              <FormattedMessage id="admin.col.chats" />
            </dt>
            <dd>
              <LocalizedLink to={adminPaths.list("chats", { bot: b.id })}>{b.chat_count}</LocalizedLink>
            </dd>
            <dt>
              <FormattedMessage id="admin.col.messages" />
            </dt>
            <dd>{b.message_count}</dd>
            <dt>
              <FormattedMessage id="admin.bot.dataSources" />
            </dt>
            <dd>{b.data_source_count}</dd>
          </dl>
          {b.description && <p>{b.description}</p>}
        </section>
        <section aria-labelledby="bot-plan">
          <h2 id="bot-plan">
            <FormattedMessage id="admin.col.plan" />
          </h2>
          <TeamPlanControl teamId={b.team.id} teamName={b.team.name} planId={b.team.plan_id} />
        </section>
        <DetailList
          id="bot-channels"
          title="admin.bot.channels"
          items={b.channels}
          render={(c) => (
            <>
              {c.name} (<FormattedMessage id={`channels.type.${c.type}`} />,{" "}
              <FormattedMessage id={`channels.status.${c.status.replace(/_/g, "-")}`} />) · <YesNo value={c.enabled} />{" "}
              · {c.message_count}
            </>
          )}
        />
        <DetailList
          id="bot-chats"
          title="admin.user.recentChats"
          items={b.recent_chats}
          render={(c) => (
            <>
              {c.title ?? intl.formatMessage({ id: "admin.chats.untitled" })} ·{" "}
              <FormattedMessage id={`conversations.channel.${c.channel}`} /> · {c.message_count} (
              <When value={c.created_at} />)
            </>
          )}
        />
        <section aria-labelledby="bot-audit">
          <h2 id="bot-audit">
            <FormattedMessage id="admin.detail.audit" />
          </h2>
          <AuditLogTable
            caption={<FormattedMessage id="admin.detail.auditCaption" values={{ target: b.name }} />}
            rows={b.audit}
            pending={false}
            error={null}
          />
        </section>
      </div>
    </AdminFrame>
  );
}
