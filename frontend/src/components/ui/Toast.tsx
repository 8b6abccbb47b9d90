// Toasts: short confirmations announced to screen readers. The app's standard texts have
// message ids; `toast.show("toast.copied")`.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { useIntl } from "react-intl";

export const TOAST_MESSAGES = {
  copied: "toast.copied", // "Copied to clipboard"
  chatUrlCopied: "toast.chatUrlCopied", // "Chat URL copied"
  linkCopied: "toast.linkCopied", // "Link copied to clipboard"
  feedbackThanks: "toast.feedbackThanks", // "Thanks for your feedback"
} as const;

interface ToastItem {
  id: number;
  text: string;
  tone: "info" | "error";
}

interface ToastApi {
  show: (messageId: string, tone?: ToastItem["tone"], values?: Record<string, string>) => void;
}

const ToastContext = createContext<ToastApi | null>(null);
export const TOAST_DURATION_MS = 3500;

export function ToastProvider({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setItems((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback<ToastApi["show"]>(
    (messageId, tone = "info", values) => {
      const id = next.current++;
      setItems((list) => [...list.slice(-2), { id, text: intl.formatMessage({ id: messageId }, values), tone }]);
      setTimeout(() => dismiss(id), TOAST_DURATION_MS);
    },
    [intl, dismiss],
  );
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {items.map((t) => (
          <div key={t.id} className={`toast toast--${t.tone}`}>
            <span>{t.text}</span>
            <button type="button" className="icon-button" aria-label={intl.formatMessage({ id: "common.close" })} onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error("useToast outside ToastProvider");
  return ctx;
}
