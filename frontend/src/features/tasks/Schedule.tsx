// How a task's schedule and next run read to the viewer (in the viewer's own time zone).
import { FormattedDate, FormattedMessage } from "react-intl";
import type { Task } from "../../data/tasks/types";

export function ScheduleText({ task }: { task: Pick<Task, "cron" | "timezone" | "every_hours"> }) {
  if (task.every_hours) return <FormattedMessage id="tasks.schedule.everyHours" values={{ hours: task.every_hours }} />;
  return <FormattedMessage id="tasks.schedule.cron" values={{ cron: <code key="cron">{task.cron}</code>, timezone: task.timezone }} />;
}

export function NextRun({ at }: { at: string | null }) {
  if (!at) return <FormattedMessage id="tasks.nextRun.pending" />;
  return <FormattedDate value={at} dateStyle="medium" timeStyle="short" timeZoneName="short" />;
}
