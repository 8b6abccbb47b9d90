import { forwardRef, type ButtonHTMLAttributes, type ReactNode } from "react";
import { useIntl } from "react-intl";
import { cx } from "./cx";
import { Spinner } from "./Spinner";

export const BUTTON_SIZES = ["xxs", "xs", "sm", "base", "lg", "xl"] as const;
export const BUTTON_THEMES = ["primary", "secondary", "white", "black", "error", "gray", "delete", "transparent"] as const;
export type ButtonSize = (typeof BUTTON_SIZES)[number];
export type ButtonTheme = (typeof BUTTON_THEMES)[number];
export type ButtonGroup = "left" | "middle" | "right";

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> {
  type?: "button" | "submit";
  size?: ButtonSize;
  theme?: ButtonTheme;
  block?: boolean;
  grouped?: ButtonGroup;
  loading?: boolean;
  children?: ReactNode;
}

export function buttonClassName({ size = "base", theme = "primary", block, grouped, loading, className }: Pick<ButtonProps, "size" | "theme" | "block" | "grouped" | "loading" | "className">): string {
  return cx("btn", `btn--${size}`, `btn--${theme}`, block && "btn--block", grouped && `btn--group-${grouped}`, loading && "btn--loading", className);
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { type = "button", size, theme, block, grouped, loading = false, disabled, children, className, ...rest },
  ref,
) {
  const intl = useIntl();
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClassName({ size, theme, block, grouped, loading, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size="sm" label={intl.formatMessage({ id: "common.loading" })} />}
      {children}
    </button>
  );
});
