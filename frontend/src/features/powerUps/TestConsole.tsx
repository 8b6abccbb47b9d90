// The settings page's test console: fill the parameters, run the action through the power-ups
// function, see the exact request sent (secrets masked) and what the bot would read.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { ErrorNote } from "../../components/ErrorNote";
import { Button, Input } from "../../components/ui";
import { usePowerUpTestMutation } from "../../data/powerUps/power-up-test-mutation";
import type { ParamSchema } from "./ParameterEditor";

export function TestConsole({ powerUpId, settings }: { powerUpId: string; settings: Record<string, unknown> }) {
  const intl = useIntl();
  const schema = (settings.parameters ?? { type: "object", properties: {} }) as ParamSchema;
  const [args, setArgs] = useState<Record<string, string>>({});
  const run = usePowerUpTestMutation();
  const typed = () =>
    Object.fromEntries(
      Object.entries(args).filter(([, v]) => v !== "").map(([k, v]) => {
        const t = schema.properties[k]?.type;
        return [k, t === "number" || t === "integer" ? Number(v) : t === "boolean" ? v === "true" : v];
      }),
    );
  return (
    <section className="pu-console" aria-labelledby="pu-console-title">
      <h2 id="pu-console-title"><FormattedMessage id="powerUps.console.title" /></h2>
      {Object.keys(schema.properties ?? {}).map((name) => (
        <Input key={name} label={name} value={args[name] ?? ""} onChange={(e) => setArgs({ ...args, [name]: e.target.value })} />
      ))}
      <Button loading={run.isPending} onClick={() => run.mutate({ power_up_id: powerUpId, arguments: typed(), settings })}>
        <FormattedMessage id="powerUps.console.run" />
      </Button>
      {run.isError && <ErrorNote error={run.error} />}
      {run.data && (
        <div className="pu-console__out" data-ok={run.data.ok}>
          <p>
            {run.data.ok
              ? intl.formatMessage({ id: "powerUps.console.ok" }, { ms: run.data.duration_ms, status: run.data.status ?? "" })
              : intl.formatMessage({ id: "powerUps.console.failed" }, { code: run.data.error_code ?? "" })}
          </p>
          {run.data.request && (
            <>
              <h3><FormattedMessage id="powerUps.console.request" /></h3>
              <pre data-testid="pu-request">{`${run.data.request.method} ${run.data.request.url}\n${Object.entries(run.data.request.headers).map(([k, v]) => `${k}: ${v}`).join("\n")}${run.data.request.body ? `\n\n${run.data.request.body}` : ""}`}</pre>
            </>
          )}
          <h3><FormattedMessage id="powerUps.console.response" /></h3>
          <pre data-testid="pu-response">{run.data.output}</pre>
        </div>
      )}
    </section>
  );
}
