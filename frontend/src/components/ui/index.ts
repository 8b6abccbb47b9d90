export { Button, buttonClassName, BUTTON_SIZES, BUTTON_THEMES, type ButtonProps, type ButtonSize, type ButtonTheme } from "./Button";
export { Input, Select, Textarea, type SelectOption } from "./Field";
export { Dialog } from "./Dialog";
export { Menu, type MenuItem } from "./Menu";
export { Tabs, type TabItem } from "./Tabs";
export { ToastProvider, useToast, TOAST_MESSAGES } from "./Toast";
export { Spinner, Loading } from "./Spinner";
export { EmptyState } from "./EmptyState";
export { cx } from "./cx";
