// Tabs (WAI-ARIA tabs pattern, automatic activation with arrow keys).
import { useId, useRef, type ReactNode } from "react";
import { cx } from "./cx";

export interface TabItem {
  key: string;
  label: ReactNode;
  panel: ReactNode;
}

export function Tabs({ items, value, onChange, label }: { items: readonly TabItem[]; value: string; onChange: (key: string) => void; label: string }) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const move = (delta: number) => {
    const i = items.findIndex((t) => t.key === value);
    const next = items[(i + delta + items.length) % items.length];
    if (!next) return;
    onChange(next.key);
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${base}-tab-${next.key}`)}`)?.focus();
  };
  return (
    <div className="tabs">
      <div ref={listRef} role="tablist" aria-label={label} className="tabs__list">
        {items.map((t) => (
          <button
            key={t.key}
            id={`${base}-tab-${t.key}`}
            type="button"
            role="tab"
            aria-selected={t.key === value}
            aria-controls={`${base}-panel-${t.key}`}
            tabIndex={t.key === value ? 0 : -1}
            className={cx("tabs__tab", t.key === value && "tabs__tab--active")}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => {
              if (e.key === "ArrowRight") move(1);
              else if (e.key === "ArrowLeft") move(-1);
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      {items.map((t) => (
        <div key={t.key} id={`${base}-panel-${t.key}`} role="tabpanel" aria-labelledby={`${base}-tab-${t.key}`} hidden={t.key !== value} className="tabs__panel">
          {t.key === value && t.panel}
        </div>
      ))}
    </div>
  );
}
