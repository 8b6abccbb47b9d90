// /app/bots/:botId/tasks — the bot's tasks with their next run in the viewer's time zone.
import { FormattedMessage } from "react-intl";
import { useParams } from "react-router";
import { ErrorNote } from "../../../components/ErrorNote";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { buttonClassName, Loading } from "../../../components/ui";
import { useTasksQuery } from "../../../data/tasks/tasks-query";
import { NextRun, ScheduleText } from "../../../features/tasks/Schedule";
import "../../../features/tasks/tasks.css";

export default function TasksPage() {
  const { botId = "" } = useParams();
  const tasks = useTasksQuery(botId);
  return (
    <div className="tk-page">
      <header>
        <h1><FormattedMessage id="tasks.title" /></h1>
        <p className="tk-muted"><FormattedMessage id="tasks.lead" /></p>
        <LocalizedLink className={buttonClassName({ size: "sm" })} to={`/app/bots/${botId}/tasks/new`}><FormattedMessage id="tasks.new" /></LocalizedLink>
      </header>
      {tasks.isPending ? (
        <Loading />
      ) : tasks.isError ? (
        <ErrorNote error={tasks.error} />
      ) : tasks.data.length === 0 ? (
        <p className="tk-muted"><FormattedMessage id="tasks.empty" /></p>
      ) : (
        <div className="table-scroll">
          <table className="tk-table">
            <thead>
              <tr>
                <th scope="col"><FormattedMessage id="tasks.col.name" /></th>
                <th scope="col"><FormattedMessage id="tasks.col.type" /></th>
                <th scope="col"><FormattedMessage id="tasks.col.schedule" /></th>
                <th scope="col"><FormattedMessage id="tasks.col.nextRun" /></th>
                <th scope="col"><FormattedMessage id="tasks.col.lastStatus" /></th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.map((t) => (
                <tr key={t.id} data-task-id={t.id}>
                  <td><LocalizedLink to={`/app/bots/${botId}/tasks/${t.id}/settings`}>{t.name}</LocalizedLink></td>
                  <td><FormattedMessage id={`tasks.type.${t.type}`} /></td>
                  <td><ScheduleText task={t} /></td>
                  <td>{t.enabled ? <NextRun at={t.next_run_at} /> : <FormattedMessage id="tasks.paused" />}</td>
                  <td>{t.last_status ? <FormattedMessage id={`tasks.status.${t.last_status}`} /> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
