// Parley's chat widget loader: <script src="https://<app>/widget.js" data-bot-id="…" async>.
// No dependencies and no framework: it adds a bubble button and an iframe showing
// /bots/{botId}/embed from the same origin as the script. Kept tiny on purpose (≤ 5 KB gz).
export interface WidgetConfig {
  botId: string;
  position: "right" | "left";
  color: string;
  open: boolean;
  lang: string;
  origin: string;
}

// The bubble's labels and the frame's title in each data-lang: "open|close|frame title".
const TEXTS: Record<string, string> = {
  en: "Open chat|Close chat|Chat",
  de: "Chat öffnen|Chat schließen|Chat",
  es: "Abrir chat|Cerrar chat|Chat",
  fr: "Ouvrir le chat|Fermer le chat|Chat",
  it: "Apri la chat|Chiudi la chat|Chat",
  jp: "チャットを開く|チャットを閉じる|チャット",
  cn: "打开聊天|关闭聊天|聊天",
  el: "Άνοιγμα συνομιλίας|Κλείσιμο συνομιλίας|Συνομιλία",
  pl: "Otwórz czat|Zamknij czat|Czat",
  nl: "Chat openen|Chat sluiten|Chat",
};
const LANGS = Object.keys(TEXTS);

/** [open, close, frame title] in a language of LANGS (English otherwise). */
export function labels(lang: string): [open: string, close: string, title: string] {
  return (TEXTS[lang] || TEXTS.en!).split("|") as [string, string, string];
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;
const DEFAULT_COLOR = "#4f46e5";

function warn(msg: string): void {
  console.error(`[parley widget] ${msg}`);
}

/** Reads and checks the data-* attributes; bad values fall back to defaults with an error. */
export function readConfig(ds: DOMStringMap, src: string): WidgetConfig | null {
  const botId = (ds.botId || "").trim();
  if (!UUID.test(botId)) {
    warn(`data-bot-id must be a bot id (uuid), got "${botId}"`);
    return null;
  }
  let position: WidgetConfig["position"] = "right";
  if (ds.position !== undefined) {
    if (ds.position === "left" || ds.position === "right") position = ds.position;
    else warn(`data-position must be "right" or "left", got "${ds.position}"; using "right"`);
  }
  let color = DEFAULT_COLOR;
  if (ds.color !== undefined) {
    if (HEX.test(ds.color)) color = ds.color;
    else warn(`data-color must be a hex colour like #4f46e5, got "${ds.color}"; using ${DEFAULT_COLOR}`);
  }
  let open = false;
  if (ds.open !== undefined) {
    if (ds.open === "true" || ds.open === "false") open = ds.open === "true";
    else warn(`data-open must be "true" or "false", got "${ds.open}"; using "false"`);
  }
  let lang = "en";
  if (ds.lang !== undefined) {
    if (LANGS.includes(ds.lang)) lang = ds.lang;
    else warn(`data-lang must be one of ${LANGS.join(", ")}, got "${ds.lang}"; using "en"`);
  }
  let origin = "";
  try {
    origin = new URL(src, location.href).origin;
  } catch {
    origin = location.origin;
  }
  return { botId, position, color, open, lang, origin };
}

export function embedUrl(c: WidgetConfig): string {
  const prefix = c.lang === "en" ? "" : `/${c.lang}`;
  return `${c.origin}${prefix}/bots/${c.botId}/embed?color=${encodeURIComponent(c.color)}`;
}

const ICON_CHAT = '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path fill="currentColor" d="M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2z"/></svg>';
const ICON_CLOSE = '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path fill="currentColor" d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z"/></svg>';

export function mount(c: WidgetConfig): { toggle: (open?: boolean) => void } {
  const side = c.position;
  const root = document.createElement("div");
  root.setAttribute("data-parley-widget", c.botId);
  root.style.cssText = `position:fixed;${side}:20px;bottom:20px;z-index:2147483000;font-family:system-ui,sans-serif`;

  const [openLabel, closeLabel, title] = labels(c.lang);
  const frame = document.createElement("iframe");
  frame.title = title;
  frame.setAttribute("allow", "clipboard-write");
  frame.style.cssText = `position:absolute;${side}:0;bottom:72px;width:min(400px,calc(100vw - 40px));height:min(620px,calc(100vh - 120px));border:0;border-radius:16px;box-shadow:0 12px 40px rgba(0,0,0,.25);background:#fff;display:none`;

  const button = document.createElement("button");
  button.type = "button";
  button.setAttribute("aria-haspopup", "dialog");
  button.style.cssText = `width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;display:flex;align-items:center;justify-content:center;color:#fff;background:${c.color};box-shadow:0 6px 20px rgba(0,0,0,.25)`;

  let isOpen = false;
  function toggle(open = !isOpen): void {
    isOpen = open;
    // The iframe loads on first open, so a closed widget costs the page nothing.
    if (open && !frame.src) frame.src = embedUrl(c);
    frame.style.display = open ? "block" : "none";
    button.innerHTML = open ? ICON_CLOSE : ICON_CHAT;
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", open ? closeLabel : openLabel);
    if (open) frame.focus();
  }
  button.addEventListener("click", () => toggle());
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen) {
      toggle(false);
      button.focus();
    }
  });
  // The embed page posts "close" when Escape is pressed inside the chat.
  window.addEventListener("message", (e) => {
    if (e.source === frame.contentWindow && e.data && e.data.parley === "close" && isOpen) {
      toggle(false);
      button.focus();
    }
  });
  root.append(frame, button);
  document.body.appendChild(root);
  toggle(c.open);
  return { toggle };
}

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return warn("cannot find its <script> tag");
  const config = readConfig(script.dataset, script.src);
  if (!config) return;
  const go = () => mount(config);
  if (document.body) go();
  else document.addEventListener("DOMContentLoaded", go);
}

start();
