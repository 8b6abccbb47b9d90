// Pieces shared by the data source screens.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { Button, Dialog, useToast } from "../../components/ui";
import { useDeleteDataSourceMutation } from "../../data/dataSources/data-source-delete-mutation";
import { useSyncDataSourceMutation } from "../../data/dataSources/data-source-sync-mutation";
import type { DataSource } from "../../data/dataSources/types";
import type { JobError } from "../../data/ingestionJobs/types";
import { LocalizedLink, useLocalePath } from "../../components/LocalizedLink";
import { ErrorText, SourceTypeIcon, StatusBadge } from "./badges";
import "./knowledge.css";
import { jobErrorMessage } from "../../lib/errors";
import { useBotQuery } from "../../data/bots/bot-query";

export const sourcesPath = (botId: string) => `/app/bots/${botId}/data-sources`;
export const sourcePath = (botId: string, id: string) => `/app/bots/${botId}/data-source/${id}`;
export const settingsPath = (botId: string, id: string, tab?: string) => `${sourcePath(botId, id)}/settings${tab ? `/${tab}` : ""}`;

/** The breadcrumb back to a bot's data sources. */
/** Where a data-source page sits: Your bots › {bot name} › Data sources (each a link back). */
export function SourcesCrumbs({ botId }: { botId: string }) {
  const intl = useIntl();
  const bot = useBotQuery(botId);
  return (
    <nav className="ks-crumbs" aria-label={intl.formatMessage({ id: "sources.crumbs" })}>
      <ol>
        <li>
          <LocalizedLink to="/app/bots"><FormattedMessage id="page.app.bots.title" /></LocalizedLink>
        </li>
        <li>
          <LocalizedLink to={`/app/bots/${botId}`} data-user-content>{bot.data?.name ?? "…"}</LocalizedLink>
        </li>
        <li>
          <LocalizedLink to={sourcesPath(botId)}><FormattedMessage id="page.app.bot.dataSources.title" /></LocalizedLink>
        </li>
      </ol>
    </nav>
  );
}

export function SourceHeader({ source, children }: { source: DataSource; children?: React.ReactNode }) {
  return (
    <>
      <SourcesCrumbs botId={source.bot_id} />
      <header className="ks-head">
        <div className="ks-table__name">
          <SourceTypeIcon type={source.type} />
          <h1>{source.name}</h1>
          <StatusBadge status={source.status} />
        </div>
        <div className="ks-head__actions">{children}</div>
      </header>
    </>
  );
}

export function SyncNowButton({ source, size = "sm", busyJob }: { source: Pick<DataSource, "id" | "bot_id" | "name">; size?: "xs" | "sm"; busyJob?: boolean }) {
  const intl = useIntl();
  const toast = useToast();
  const sync = useSyncDataSourceMutation();
  const [error, setError] = useState<unknown>(null);
  return (
    <>
      <Button
        size={size}
        theme="secondary"
        loading={sync.isPending}
        disabled={busyJob}
        aria-label={intl.formatMessage({ id: "sources.action.syncNamed" }, { name: source.name })}
        onClick={() => {
          setError(null);
          sync.mutate({ id: source.id, botId: source.bot_id }, { onSuccess: () => toast.show("sources.toast.syncStarted"), onError: setError });
        }}
      >
        <FormattedMessage id="sources.action.sync" />
      </Button>
      {error !== null && (
        <span className="ks-error" role="alert">
          <ErrorText error={error} />
        </span>
      )}
    </>
  );
}

export function DeleteSourceButton({ source }: { source: DataSource }) {
  const [open, setOpen] = useState(false);
  const del = useDeleteDataSourceMutation();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const toast = useToast();
  return (
    <>
      <Button size="sm" theme="delete" onClick={() => setOpen(true)}>
        <FormattedMessage id="sources.action.delete" />
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={<FormattedMessage id="sources.delete.title" values={{ name: source.name }} />}
        footer={
          <>
            <Button theme="gray" onClick={() => setOpen(false)} disabled={del.isPending}>
              <FormattedMessage id="sources.action.cancel" />
            </Button>
            <Button
              theme="error"
              loading={del.isPending}
              onClick={async () => {
                // mutateAsync: the page under this dialog unmounts once the row is gone
                // (realtime DELETE), and per-call mutate callbacks would then never run.
                try {
                  await del.mutateAsync({ id: source.id, botId: source.bot_id });
                } catch {
                  return; // shown below from del.error
                }
                toast.show("sources.toast.deleted");
                void navigate(lp(sourcesPath(source.bot_id)));
              }}
            >
              <FormattedMessage id="sources.delete.confirm" />
            </Button>
          </>
        }
      >
        <p>
          <FormattedMessage id="sources.delete.text" values={{ documents: source.document_count, chunks: source.chunk_count }} />
        </p>
        {del.error && (
          <p className="ks-error" role="alert">
            <ErrorText error={del.error} />
          </p>
        )}
      </Dialog>
    </>
  );
}

export function JobErrors({ errors }: { errors: JobError[] }) {
  const intl = useIntl();
  if (!errors.length) return null;
  return (
    <ul className="ks-errors" aria-label={intl.formatMessage({ id: "sources.job.errors" })}>
      {errors.map((e, i) => (
        <li key={i} data-level={e.level ?? "error"}>
          {e.url && <span className="ks-url">{e.url}</span>} <FormattedMessage {...jobErrorMessage(e.code ?? "")} />
        </li>
      ))}
    </ul>
  );
}
