// /app/bots/:botId/tasks/new — choose one of the four types, then the form.
import { useState } from "react";
import { FormattedMessage } from "react-intl";
import { useNavigate, useParams } from "react-router";
import { useLocalePath } from "../../../components/LocalizedLink";
import { useSaveTaskMutation } from "../../../data/tasks/task-save-mutation";
import { TASK_TYPES, type TaskType } from "../../../data/tasks/types";
import { emptyTaskInput, TaskForm } from "../../../features/tasks/TaskForm";
import "../../../features/tasks/tasks.css";

export default function NewTaskPage() {
  const { botId = "" } = useParams();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const save = useSaveTaskMutation();
  const [type, setType] = useState<TaskType>("digest");
  return (
    <div className="tk-page">
      <h1><FormattedMessage id="tasks.newTitle" /></h1>
      <div className="tk-types" role="radiogroup" aria-labelledby="tk-type-label">
        <span id="tk-type-label" className="sr-only"><FormattedMessage id="tasks.col.type" /></span>
        {TASK_TYPES.map((t) => (
          <div key={t} className="tk-type" role="radio" tabIndex={0} aria-checked={type === t} data-task-type={t}
            onClick={() => setType(t)} onKeyDown={(e) => (e.key === " " || e.key === "Enter") && setType(t)}>
            <strong><FormattedMessage id={`tasks.type.${t}`} /></strong>
            <p className="tk-muted"><FormattedMessage id={`tasks.typeHelp.${t}`} /></p>
          </div>
        ))}
      </div>
      <TaskForm key={type} botId={botId} type={type} initial={emptyTaskInput()} saving={save.isPending} error={save.error}
        onSave={(input) => save.mutate({ botId, type, input }, { onSuccess: (id) => navigate(localePath(`/app/bots/${botId}/tasks/${id}/settings`)) })} />
    </div>
  );
}
