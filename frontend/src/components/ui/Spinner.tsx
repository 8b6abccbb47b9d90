import { FormattedMessage } from "react-intl";
import { cx } from "./cx";

export function Spinner({ size = "base", className, label }: { size?: "sm" | "base" | "lg"; className?: string; label?: string }) {
  return <span className={cx("spinner", `spinner--${size}`, className)} role="status" aria-label={label} aria-hidden={label ? undefined : true} />;
}

/** The "Loading..." state of a page or panel. */
export function Loading({ className }: { className?: string }) {
  return (
    <div className={cx("loading", className)} role="status" aria-live="polite">
      <Spinner />
      <span>
        <FormattedMessage id="common.loading" />
      </span>
    </div>
  );
}
