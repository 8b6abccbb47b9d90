// /app/teams/new: create a shared team (create_team); the creator becomes its owner.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { Button, Input } from "../../../components/ui";
import { useCreateTeamMutation } from "../../../data/teams/team-create-mutation";
import { setCurrentTeamId } from "../../../features/teams/currentTeam";
import { ErrorNote } from "../../../components/ErrorNote";
import { useLocalePath } from "../../../components/LocalizedLink";
import "../../../components/panels.css";

export default function NewTeamPage() {
  const intl = useIntl();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const create = useCreateTeamMutation();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);
  const invalid = name.trim().length < 1 || name.trim().length > 100;
  return (
    <section className="page-section">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="teams.new.title" /></h1>
          <p className="page-head__sub"><FormattedMessage id="teams.new.intro" /></p>
        </div>
      </div>
      <form
        className="panel form-stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (invalid) return;
          create.mutate(name.trim(), {
            onSuccess: (team) => {
              setCurrentTeamId(team.id);
              navigate(lp(`/app/teams/${team.id}`));
            },
          });
        }}
      >
        <Input
          label={intl.formatMessage({ id: "teams.new.name" })}
          value={name}
          maxLength={100}
          autoFocus
          onChange={(e) => setName(e.target.value)}
          error={touched && invalid ? intl.formatMessage({ id: "teams.new.nameRequired" }) : undefined}
        />
        <ErrorNote error={create.error} />
        <div className="form-actions">
          <Button type="submit" loading={create.isPending}>
            <FormattedMessage id="teams.new.submit" />
          </Button>
        </div>
      </form>
    </section>
  );
}
