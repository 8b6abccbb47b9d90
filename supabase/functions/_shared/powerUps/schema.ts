// A small JSON Schema check for tool arguments (the subset the parameter editor writes: an
// object of string, number, integer, boolean properties, with required and enum). What it
// refuses is told to the model as a tool error, so it can retry with correct arguments.
export function checkArguments(schema: { properties?: Record<string, Record<string, unknown>>; required?: string[] }, args: Record<string, unknown>): string | null {
  const props = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (args[name] === undefined || args[name] === null || args[name] === "") return `missing required argument "${name}"`;
  }
  for (const [name, value] of Object.entries(args)) {
    const p = props[name];
    if (!p) return `unknown argument "${name}"`;
    const type = p.type as string | undefined;
    const ok = type === "string" ? typeof value === "string"
      : type === "number" ? typeof value === "number" && Number.isFinite(value)
      : type === "integer" ? Number.isInteger(value)
      : type === "boolean" ? typeof value === "boolean"
      : type === undefined || type === "array" || type === "object";
    if (!ok) return `argument "${name}" must be a ${type}`;
    if (Array.isArray(p.enum) && !p.enum.includes(value)) return `argument "${name}" must be one of ${JSON.stringify(p.enum)}`;
    if (typeof value === "string" && value.length > 1000) return `argument "${name}" is too long`;
  }
  return null;
}
