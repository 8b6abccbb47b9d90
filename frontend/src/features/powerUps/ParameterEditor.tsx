// The parameters of an HTTP action: a friendly list (name, type, description, required, enum)
// and the same JSON Schema raw, for experts. Both edit one value.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input, Select, Textarea } from "../../components/ui";

export interface ParamSchema {
  type: "object";
  properties: Record<string, { type?: string; description?: string; enum?: unknown[] }>;
  required?: string[];
}

interface Row {
  name: string;
  type: string;
  description: string;
  required: boolean;
  enumText: string;
}

function toRows(schema: ParamSchema): Row[] {
  return Object.entries(schema.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.type ?? "string",
    description: p.description ?? "",
    required: (schema.required ?? []).includes(name),
    enumText: Array.isArray(p.enum) ? p.enum.join(", ") : "",
  }));
}

function toSchema(rows: Row[]): ParamSchema {
  const properties: ParamSchema["properties"] = {};
  for (const r of rows) {
    if (!r.name.trim()) continue;
    const values = r.enumText.split(",").map((s) => s.trim()).filter(Boolean);
    properties[r.name.trim()] = { type: r.type, ...(r.description ? { description: r.description } : {}), ...(values.length ? { enum: values } : {}) };
  }
  return { type: "object", properties, required: rows.filter((r) => r.required && r.name.trim()).map((r) => r.name.trim()) };
}

export function ParameterEditor({ value, onChange }: { value: ParamSchema; onChange: (v: ParamSchema) => void }) {
  const intl = useIntl();
  const rows = toRows(value);
  const [raw, setRaw] = useState<string | null>(null);
  const [rawError, setRawError] = useState(false);
  const set = (i: number, patch: Partial<Row>) => onChange(toSchema(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))));
  return (
    <fieldset className="pu-params">
      <legend><FormattedMessage id="powerUps.params.title" /></legend>
      {rows.map((r, i) => (
        <div className="pu-param" key={i} data-param={r.name}>
          <Input hideLabel label={intl.formatMessage({ id: "powerUps.params.name" })} value={r.name} onChange={(e) => set(i, { name: e.target.value.replace(/[^a-zA-Z0-9_]/g, "") })} />
          <Select hideLabel label={intl.formatMessage({ id: "powerUps.params.type" })} value={r.type} onChange={(e) => set(i, { type: e.target.value })}
            options={["string", "number", "integer", "boolean"].map((t) => ({ value: t, label: t }))} />
          <Input hideLabel label={intl.formatMessage({ id: "powerUps.params.description" })} placeholder={intl.formatMessage({ id: "powerUps.params.description" })} value={r.description} onChange={(e) => set(i, { description: e.target.value })} />
          <Input hideLabel label={intl.formatMessage({ id: "powerUps.params.enum" })} placeholder={intl.formatMessage({ id: "powerUps.params.enum" })} value={r.enumText} onChange={(e) => set(i, { enumText: e.target.value })} />
          <label><input type="checkbox" checked={r.required} onChange={(e) => set(i, { required: e.target.checked })} /> <FormattedMessage id="powerUps.params.required" /></label>
          <Button size="sm" theme="transparent" onClick={() => onChange(toSchema(rows.filter((_, j) => j !== i)))}><FormattedMessage id="powerUps.params.remove" /></Button>
        </div>
      ))}
      <Button size="sm" theme="secondary" onClick={() => onChange(toSchema([...rows, { name: `param${rows.length + 1}`, type: "string", description: "", required: false, enumText: "" }]))}>
        <FormattedMessage id="powerUps.params.add" />
      </Button>
      <details onToggle={() => setRaw(null)}>
        <summary><FormattedMessage id="powerUps.params.raw" /></summary>
        <Textarea hideLabel label={intl.formatMessage({ id: "powerUps.params.raw" })} rows={8} value={raw ?? JSON.stringify(value, null, 2)}
          onChange={(e) => {
            setRaw(e.target.value);
            try {
              const parsed = JSON.parse(e.target.value) as ParamSchema;
              if (parsed?.type !== "object") throw new Error("not an object schema");
              setRawError(false);
              onChange(parsed);
            } catch {
              setRawError(true);
            }
          }} />
        {rawError && <p role="alert" className="pu-error"><FormattedMessage id="powerUps.params.rawInvalid" /></p>}
      </details>
    </fieldset>
  );
}
