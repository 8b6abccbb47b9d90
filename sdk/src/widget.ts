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
  /** Greeting shown next to the closed bubble after `greetingDelay` seconds ("" = none). */
  greeting: string;
  greetingDelay: number;
  /** Path patterns ("/checkout*") on which the widget stays hidden. */
  hideOn: string[];
  /** An image URL for the bubble's icon ("" = the chat icon). */
  icon: string;
}

/** What the page may listen to with Parley.on(name, fn). */
export type WidgetEvent = "ready" | "open" | "close" | "message" | "chat";

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
    // The docs' names, and the short ones the first snippets used.
    const p = ds.position.replace(/^bottom-/, "");
    if (p === "left" || p === "right") position = p;
    else warn(`data-position must be "bottom-right" or "bottom-left", got "${ds.position}"; using "bottom-right"`);
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
  let greetingDelay = 5;
  if (ds.greetingDelay !== undefined) {
    const n = Number(ds.greetingDelay);
    if (ds.greetingDelay.trim() && n >= 0 && n <= 3600) greetingDelay = n;
    else warn(`data-greeting-delay must be seconds from 0 to 3600, got "${ds.greetingDelay}"; using 5`);
  }
  let icon = "";
  if (ds.icon !== undefined) {
    if (/^(https:\/\/|\/)[^\s"'<>()]+$/.test(ds.icon)) icon = ds.icon;
    else warn(`data-icon must be an https:// or /path image URL, got "${ds.icon}"; using the chat icon`);
  }
  const greeting = (ds.greeting || "").trim().slice(0, 200);
  const hideOn = (ds.hideOn || "").split(",").map((x) => x.trim()).filter(Boolean);
  let origin = "";
  try {
    origin = new URL(src, location.href).origin;
  } catch {
    origin = location.origin;
  }
  return { botId, position, color, open, lang, origin, greeting, greetingDelay, hideOn, icon };
}

export function embedUrl(c: WidgetConfig, chatId?: string | null): string {
  const prefix = c.lang === "en" ? "" : `/${c.lang}`;
  const chat = chatId && UUID.test(chatId) ? `&chat=${chatId}` : "";
  return `${c.origin}${prefix}/bots/${c.botId}/embed?color=${encodeURIComponent(c.color)}${chat}`;
}

/** Whether `path` matches a pattern where `*` stands for anything ("/checkout*", "/admin/*"). */
export function hiddenOn(path: string, patterns: string[]): boolean {
  return patterns.some((p) =>
    new RegExp(`^${p.split("*").map((x) => x.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`).test(path)
  );
}

/** The visitor's chat with this bot on this site, kept across reloads until they start a new one. */
const chatKey = (botId: string) => `parley:${botId}:chat`;
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const ICON_CHAT = '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path fill="currentColor" d="M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2z"/></svg>';
const ICON_CLOSE = '<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true"><path fill="currentColor" d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z"/></svg>';

type Listener = (detail?: unknown) => void;
const listeners: Record<string, Listener[]> = {};
function emit(name: WidgetEvent, detail?: unknown): void {
  for (const fn of listeners[name] || []) {
    try {
      fn(detail);
    } catch (e) {
      console.error(e);
    }
  }
}

export interface Widget {
  toggle: (open?: boolean) => void;
  identify: (user: Record<string, unknown>) => void;
}
const widgets: Widget[] = [];

export function mount(c: WidgetConfig): Widget {
  const side = c.position;
  const store = storage();
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
  button.style.cssText = `position:relative;width:56px;height:56px;border-radius:50%;border:0;cursor:pointer;display:flex;align-items:center;justify-content:center;color:#fff;background:${c.color};box-shadow:0 6px 20px rgba(0,0,0,.25)`;
  const chatIcon = c.icon
    ? `<img src="${c.icon}" alt="" width="32" height="32" style="border-radius:50%;object-fit:cover">`
    : ICON_CHAT;

  // The unread badge: the bot answered while the chat was closed.
  const badge = document.createElement("span");
  badge.setAttribute("data-parley-unread", "");
  badge.style.cssText = `position:absolute;top:-2px;${side === "right" ? "left" : "right"}:-2px;min-width:18px;height:18px;border-radius:9px;background:#dc2626;color:#fff;font:600 11px/18px system-ui,sans-serif;text-align:center;display:none`;
  let unread = 0;

  // The greeting: a small bubble next to the closed button, once per page view.
  const greeting = document.createElement("div");
  greeting.setAttribute("role", "status");
  greeting.style.cssText = `position:absolute;${side}:0;bottom:68px;max-width:260px;padding:10px 14px;border-radius:12px;background:#fff;color:#111;box-shadow:0 6px 20px rgba(0,0,0,.2);cursor:pointer;display:none`;
  greeting.textContent = c.greeting;

  let isOpen = false;
  let identity: Record<string, unknown> | null = null;
  const post = (data: unknown) => frame.contentWindow?.postMessage(data, c.origin);
  function toggle(open = !isOpen): void {
    const changed = open !== isOpen;
    isOpen = open;
    // The iframe loads on first open, so a closed widget costs the page nothing.
    if (open && !frame.src) frame.src = embedUrl(c, store?.getItem(chatKey(c.botId)));
    frame.style.display = open ? "block" : "none";
    button.innerHTML = open ? ICON_CLOSE : chatIcon;
    button.append(badge);
    button.setAttribute("aria-expanded", String(open));
    button.setAttribute("aria-label", open ? closeLabel : openLabel);
    if (open) {
      frame.focus();
      greeting.style.display = "none";
      unread = 0;
      badge.style.display = "none";
    }
    if (changed) emit(open ? "open" : "close", { botId: c.botId });
  }
  button.addEventListener("click", () => toggle());
  greeting.addEventListener("click", () => toggle(true));
  // The chat's app says "ready" once it listens (after the frame's load event, often): the
  // identity given before that is sent again then.
  frame.addEventListener("load", () => identity && post({ parley: "identify", user: identity }));
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen) {
      toggle(false);
      button.focus();
    }
  });
  // The embed page posts "close" (Escape inside the chat), "chat" (a chat started, or a new one:
  // chatId null), "answer" (the bot answered, with its text) and "ready" (it listens for identify).
  window.addEventListener("message", (e) => {
    const d = e.source === frame.contentWindow && e.origin === c.origin ? e.data : null;
    if (!d || typeof d !== "object") return;
    if (d.parley === "close" && isOpen) {
      toggle(false);
      button.focus();
    } else if (d.parley === "chat") {
      const id = typeof d.chatId === "string" && UUID.test(d.chatId) ? d.chatId : null;
      if (id) store?.setItem(chatKey(c.botId), id);
      else store?.removeItem(chatKey(c.botId));
      emit("chat", { botId: c.botId, chatId: id });
    } else if (d.parley === "ready") {
      if (identity) post({ parley: "identify", user: identity });
    } else if (d.parley === "answer") {
      if (!isOpen) {
        badge.textContent = String(++unread);
        badge.style.display = "block";
      }
      emit("message", { botId: c.botId, text: typeof d.text === "string" ? d.text : "" });
    }
  });
  root.append(frame, greeting, button);
  document.body.appendChild(root);
  toggle(c.open);
  if (c.greeting && !c.open) {
    setTimeout(() => {
      if (!isOpen) greeting.style.display = "block";
    }, c.greetingDelay * 1000);
  }
  const widget: Widget = {
    toggle,
    identify(user) {
      identity = user;
      if (frame.src) post({ parley: "identify", user });
    },
  };
  widgets.push(widget);
  emit("ready", { botId: c.botId });
  return widget;
}

/** The page's JavaScript API: window.Parley.open(), .close(), .toggle(), .identify({...}), .on(event, fn). */
export const api = {
  open: () => widgets.forEach((w) => w.toggle(true)),
  close: () => widgets.forEach((w) => w.toggle(false)),
  toggle: () => widgets.forEach((w) => w.toggle()),
  identify: (user: Record<string, unknown>) => widgets.forEach((w) => w.identify(user)),
  on(name: WidgetEvent, fn: Listener) {
    (listeners[name] ||= []).push(fn);
  },
  off(name: WidgetEvent, fn: Listener) {
    listeners[name] = (listeners[name] || []).filter((f) => f !== fn);
  },
};

function start(): void {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script) return warn("cannot find its <script> tag");
  const config = readConfig(script.dataset, script.src);
  if (!config) return;
  const w = window as unknown as { Parley?: typeof api };
  w.Parley = api;
  if (hiddenOn(location.pathname, config.hideOn)) return;
  const go = () => mount(config);
  if (document.body) go();
  else document.addEventListener("DOMContentLoaded", go);
}

start();
