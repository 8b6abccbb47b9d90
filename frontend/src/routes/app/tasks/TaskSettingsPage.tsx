// /app/bots/:botId/tasks/:taskId/settings — the task's form, "run now" and the run log.
import { FormattedDate, FormattedMessage, useIntl } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { StoredError } from "../../../components/StoredError";
import { useLocalePath } from "../../../components/LocalizedLink";
import { Button, Loading } from "../../../components/ui";
import { useDeleteTaskMutation } from "../../../data/tasks/task-delete-mutation";
import { useTaskQuery } from "../../../data/tasks/task-query";
import { useRunTaskMutation } from "../../../data/tasks/task-run-mutation";
import { useTaskRunsQuery } from "../../../data/tasks/task-runs-query";
import { useSaveTaskMutation } from "../../../data/tasks/task-save-mutation";
import type { Task, TaskInput } from "../../../data/tasks/types";
import { NextRun } from "../../../features/tasks/Schedule";
import { TaskForm } from "../../../features/tasks/TaskForm";
import "../../../features/tasks/tasks.css";
import { taskRunErrorMessage } from "../../../lib/errors";

function inputOf(t: Task): TaskInput {
  const s = (t.settings && typeof t.settings === "object" && !Array.isArray(t.settings) ? t.settings : {}) as TaskInput["settings"];
  return { name: t.name, cron: t.cron, timezone: t.timezone, every_hours: t.every_hours, settings: s, recipient_ids: t.recipient_ids,
    webhook_endpoint_id: t.webhook_endpoint_id, enabled: t.enabled };
}

export default function TaskSettingsPage() {
  const { botId = "", taskId = "" } = useParams();
  const intl = useIntl();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const task = useTaskQuery(taskId);
  const runs = useTaskRunsQuery(taskId);
  const save = useSaveTaskMutation();
  const run = useRunTaskMutation();
  const remove = useDeleteTaskMutation();
  if (task.isPending) return <Loading />;
  if (task.isError) return <ErrorNote error={task.error} />;
  const t = task.data;
  return (
    <div className="tk-page">
      <header>
        <h1>{t.name}</h1>
        <p className="tk-muted">
          <FormattedMessage id={`tasks.type.${t.type}`} /> · <FormattedMessage id="tasks.col.nextRun" />: {t.enabled ? <NextRun at={t.next_run_at} /> : <FormattedMessage id="tasks.paused" />}
        </p>
        <Button onClick={() => run.mutate({ id: t.id, botId })} loading={run.isPending}><FormattedMessage id="tasks.runNow" /></Button>
        {run.data && (
          <div role="status">
            <FormattedMessage id={`tasks.status.${run.data.status}`} />
            {run.data.error && <StoredError text={run.data.error} message={taskRunErrorMessage} />}
          </div>
        )}
        {run.isError && <ErrorNote error={run.error} />}
      </header>
      <TaskForm key={t.id + t.name} botId={botId} type={t.type} initial={inputOf(t)} saving={save.isPending} error={save.error}
        onSave={(input) => save.mutate({ id: t.id, botId, input })} />
      {save.isSuccess && <p role="status"><FormattedMessage id="tasks.saved" /></p>}
      <section>
        <h2><FormattedMessage id="tasks.runs.title" /></h2>
        {runs.isPending ? <Loading /> : runs.isError ? <ErrorNote error={runs.error} /> : runs.data.length === 0 ? (
          <p className="tk-muted"><FormattedMessage id="tasks.runs.empty" /></p>
        ) : (
          <div className="table-scroll">
            <table className="tk-table">
              <thead>
                <tr>
                  <th scope="col"><FormattedMessage id="tasks.runs.started" /></th>
                  <th scope="col"><FormattedMessage id="tasks.runs.trigger" /></th>
                  <th scope="col"><FormattedMessage id="tasks.col.lastStatus" /></th>
                  <th scope="col"><FormattedMessage id="tasks.runs.duration" /></th>
                  <th scope="col"><FormattedMessage id="tasks.runs.output" /></th>
                </tr>
              </thead>
              <tbody>
                {runs.data.map((r) => (
                  <tr key={r.id} data-run-status={r.status}>
                    <td><FormattedDate value={r.started_at} dateStyle="medium" timeStyle="short" /></td>
                    <td><FormattedMessage id={`tasks.trigger.${r.trigger}`} /></td>
                    <td><FormattedMessage id={`tasks.status.${r.status}`} />{r.error && <StoredError className="tk-muted" text={r.error} message={taskRunErrorMessage} />}</td>
                    <td>{r.duration_ms === null ? "—" : intl.formatNumber(r.duration_ms / 1000, { style: "unit", unit: "second", maximumFractionDigits: 1 })}</td>
                    <td><details><summary><FormattedMessage id="tasks.runs.show" /></summary><pre className="tk-pre">{JSON.stringify(r.output, null, 2)}</pre></details></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <div>
        <Button theme="delete" onClick={() => {
          if (confirm(intl.formatMessage({ id: "tasks.deleteConfirm" }))) remove.mutate({ id: t.id, botId }, { onSuccess: () => navigate(localePath(`/app/bots/${botId}/tasks`)) });
        }}>
          <FormattedMessage id="tasks.delete" />
        </Button>
        {remove.isError && <ErrorNote error={remove.error} />}
      </div>
    </div>
  );
}
