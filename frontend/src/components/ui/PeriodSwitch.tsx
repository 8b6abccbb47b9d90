// A row of toggle buttons choosing one period (7/30/90 days), for charts and dashboards.
import type { ReactNode } from "react";
import "./period-switch.css";

export function PeriodSwitch<P extends number>({ periods, value, onChange, label, option }: {
  periods: readonly P[];
  value: P;
  onChange: (p: P) => void;
  /** The group's accessible name. */
  label: string;
  /** How one period reads ("30 days"). */
  option: (p: P) => ReactNode;
}) {
  return (
    <div className="period-switch" role="group" aria-label={label}>
      {periods.map((p) => (
        <button key={p} type="button" aria-pressed={p === value} onClick={() => onChange(p)}>
          {option(p)}
        </button>
      ))}
    </div>
  );
}
