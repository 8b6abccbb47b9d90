// The administrator's action controls shared by the user and bot pages: a confirmed action
// button (optionally typed), the "move this team to another plan" control, and the outcome line.
import { useState, type ReactNode } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ErrorNote } from "../../components/ErrorNote";
import { useLocale } from "../../components/LocalizedLink";
import { Button, Select, type ButtonTheme } from "../../components/ui";
import { useAdminActionMutation, type AdminAction } from "../../data/admin/actions-mutation";
import { usePlanChoicesQuery } from "../../data/admin/plans-query";

/** A button that asks for confirmation (typing `typed` when given) and then runs `action`. */
export function ConfirmedAction(props: {
  label: ReactNode;
  title: ReactNode;
  body: ReactNode;
  action: AdminAction;
  typed?: string;
  theme?: ButtonTheme;
  onDone?: () => void;
  doneMessage: string;
}) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const mutation = useAdminActionMutation({
    onSuccess: () => {
      setOpen(false);
      setDone(true);
      props.onDone?.();
    },
  });
  return (
    <>
      <Button
        theme={props.theme ?? "white"}
        size="sm"
        onClick={() => {
          mutation.reset();
          setDone(false);
          setOpen(true);
        }}
      >
        {props.label}
      </Button>
      {done && (
        <span role="status" className="admin-done">
          <FormattedMessage id={props.doneMessage} />
        </span>
      )}
      <ConfirmDialog
        open={open}
        title={props.title}
        body={props.body}
        confirmLabel={props.label}
        typed={props.typed}
        busy={mutation.isPending}
        error={mutation.error ? <ErrorNote error={mutation.error} /> : undefined}
        onConfirm={() => mutation.mutate(props.action)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** Move a team to another plan (admin_set_team_plan; recorded in the audit log). */
export function TeamPlanControl({ teamId, teamName, planId }: { teamId: string; teamName: string; planId: string }) {
  const intl = useIntl();
  const locale = useLocale();
  const plans = usePlanChoicesQuery();
  const [choice, setChoice] = useState(planId);
  const mutation = useAdminActionMutation();
  const options = (plans.data ?? []).map((p) => {
    const names = p.name as Record<string, string>;
    return { value: p.id, label: names[locale] ?? names.en ?? p.id };
  });
  return (
    <div className="admin-actions">
      <Select
        label={intl.formatMessage({ id: "admin.plan.label" }, { team: teamName })}
        value={choice}
        options={options.length ? options : [{ value: planId, label: planId }]}
        onChange={(e) => setChoice(e.target.value)}
      />
      <Button
        size="sm"
        theme="white"
        disabled={choice === planId}
        loading={mutation.isPending}
        onClick={() => mutation.mutate({ kind: "set_team_plan", teamId, planId: choice })}
      >
        <FormattedMessage id="admin.plan.move" />
      </Button>
      {mutation.isSuccess && (
        <span role="status">
          <FormattedMessage
            id="admin.plan.moved"
            values={{ team: teamName, plan: options.find((o) => o.value === choice)?.label ?? choice }}
          />
        </span>
      )}
      {mutation.error ? <ErrorNote error={mutation.error} /> : null}
    </div>
  );
}
