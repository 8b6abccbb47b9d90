// A small dependency-free SVG bar chart. Accessible by construction: a titled figure, a visually
// hidden data table with the same numbers, and one keyboard-focusable group per point whose
// tooltip appears on focus or hover.
import { useId, useState } from "react";
import "./charts.css";

export interface ChartSeries {
  key: string;
  name: string;
  /** CSS colour (a var() of global.css). */
  color: string;
}

export interface ChartPoint {
  /** Short label under the bar and in the table's first column. */
  label: string;
  values: Record<string, number>;
}

const W = 420;
const H = 190;
const PAD = { top: 12, right: 8, bottom: 24, left: 32 };

function niceMax(v: number): number {
  if (v <= 4) return 4;
  const pow = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= v) return m * pow;
  return 10 * pow;
}

export function BarChart(props: { title: string; description?: string; labelHeader: string; series: ChartSeries[]; points: ChartPoint[] }) {
  const { title, description, labelHeader, series, points } = props;
  const id = useId();
  const [active, setActive] = useState<number | null>(null);
  const max = niceMax(Math.max(0, ...points.flatMap((p) => series.map((s) => p.values[s.key] ?? 0))));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = points.length ? innerW / points.length : innerW;
  const barW = Math.max(1, (slot * 0.8) / Math.max(1, series.length));
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  // Label every n-th point so 90 days stay readable.
  const every = Math.max(1, Math.ceil(points.length / 6));
  const describe = (p: ChartPoint) => `${p.label}: ${series.map((s) => `${s.name} ${p.values[s.key] ?? 0}`).join(", ")}`;

  return (
    <figure className="chart" aria-labelledby={`${id}-title`}>
      <figcaption className="chart__head">
        <span id={`${id}-title`} className="chart__title">{title}</span>
      </figcaption>
      {description && <p id={`${id}-desc`} className="sr-only">{description}</p>}
      <div className="chart__plot">
        <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-labelledby={`${id}-title`} aria-describedby={description ? `${id}-desc` : undefined}>
          {[0, 0.5, 1].map((f) => (
            <g key={f} aria-hidden="true">
              <line className="chart__grid" x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} />
              <text className="chart__axis" x={PAD.left - 4} y={y(max * f) + 4} textAnchor="end">{Math.round(max * f)}</text>
            </g>
          ))}
          {points.map((p, i) => {
            const x0 = PAD.left + i * slot + slot * 0.1;
            return (
              <g
                key={p.label + i}
                className={`chart__point${active === i ? " chart__point--active" : ""}`}
                tabIndex={0}
                role="img"
                aria-label={describe(p)}
                onFocus={() => setActive(i)}
                onBlur={() => setActive((a) => (a === i ? null : a))}
                onMouseEnter={() => setActive(i)}
                onMouseLeave={() => setActive((a) => (a === i ? null : a))}
              >
                <rect className="chart__hit" x={PAD.left + i * slot} y={PAD.top} width={slot} height={innerH} />
                {series.map((s, k) => {
                  const v = p.values[s.key] ?? 0;
                  return <rect key={s.key} x={x0 + k * barW} y={y(v)} width={barW} height={Math.max(0, PAD.top + innerH - y(v))} rx={Math.min(2, barW / 3)} fill={s.color} />;
                })}
                {i % every === 0 && (
                  <text className="chart__axis" x={PAD.left + i * slot + slot / 2} y={H - 6} textAnchor="middle" aria-hidden="true">{p.label}</text>
                )}
              </g>
            );
          })}
        </svg>
        {active !== null && points[active] && (
          <div className="chart__tooltip" role="tooltip" style={{ left: `${((PAD.left + (active + 0.5) * slot) / W) * 100}%` }}>
            <strong>{points[active].label}</strong>
            {series.map((s) => (
              <span key={s.key}>
                <span className="chart__swatch" style={{ background: s.color }} /> {s.name}: {points[active]!.values[s.key] ?? 0}
              </span>
            ))}
          </div>
        )}
      </div>
      {series.length > 1 && (
        <span className="chart__legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.key} className="chart__legend-item">
              <span className="chart__swatch" style={{ background: s.color }} />
              {s.name}
            </span>
          ))}
        </span>
      )}
      {/* The wrapper hides the table: a table itself ignores width: 1px and would widen phones. */}
      <div className="sr-only">
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{labelHeader}</th>
            {series.map((s) => <th key={s.key} scope="col">{s.name}</th>)}
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={p.label + i}>
              <th scope="row">{p.label}</th>
              {series.map((s) => <td key={s.key}>{p.values[s.key] ?? 0}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
