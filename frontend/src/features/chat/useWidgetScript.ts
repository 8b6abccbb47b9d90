// Loads the real widget loader (/widget.js) into the current page, as a site would, and
// removes it again: used by the SDK page's live preview and the /test pages.
import { useEffect } from "react";

export interface WidgetOptions {
  botId: string;
  position?: string;
  color?: string;
  lang?: string;
  open?: boolean;
}

export function useWidgetScript({ botId, position = "bottom-right", color = "#4f46e5", lang = "en", open = false }: WidgetOptions) {
  useEffect(() => {
    const script = document.createElement("script");
    script.src = "/widget.js";
    script.async = true;
    Object.assign(script.dataset, { botId, position, color, lang, open: String(open) });
    document.body.appendChild(script);
    return () => {
      script.remove();
      document.querySelectorAll(`[data-parley-widget="${botId}"]`).forEach((el) => el.remove());
    };
  }, [botId, position, color, lang, open]);
}
