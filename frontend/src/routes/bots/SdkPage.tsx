// /bots/{botId}/sdk: how to put the bot on a website (the widget's script tag, copyable)
// with a live preview of the widget on this very page.
import { useEffect, useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useParams } from "react-router";
import { Button, Select, useToast, TOAST_MESSAGES } from "../../components/ui";
import { getConfig } from "../../lib/config";
import { LOCALES } from "../../i18n/locales";
import { useLocale } from "../../components/LocalizedLink";
import { useWidgetScript } from "../../features/chat/useWidgetScript";
import { BackToApp } from "../../features/site/BackToApp";
import "../../features/chat/chat.css";

export function widgetSnippet(origin: string, botId: string, o: { position: string; color: string; open: boolean; lang: string }): string {
  return `<script src="${origin}/widget.js" data-bot-id="${botId}" data-position="${o.position}" data-color="${o.color}" data-open="${o.open}" data-lang="${o.lang}" async></script>`;
}

export default function SdkPage() {
  const { botId } = useParams();
  const intl = useIntl();
  const toast = useToast();
  const locale = useLocale();
  const [position, setPosition] = useState("bottom-right");
  const [color, setColor] = useState("#4f46e5");
  const [lang, setLang] = useState<string>(locale);
  const origin = getConfig().siteUrl || window.location.origin;
  const snippet = useMemo(() => widgetSnippet(origin, botId!, { position, color, open: false, lang }), [origin, botId, position, color, lang]);
  useWidgetScript({ botId: botId!, position, color, lang, open: false });
  useEffect(() => {
    document.documentElement.classList.add("sdk-page");
    return () => document.documentElement.classList.remove("sdk-page");
  }, []);

  return (
    <main id="main" className="sdk-page__main">
      <BackToApp botId={botId!} />
      <h1>
        <FormattedMessage id="chat.sdk.title" />
      </h1>
      <p className="muted">
        <FormattedMessage id="chat.sdk.intro" />
      </p>
      <div className="sdk-options">
        <Select label={intl.formatMessage({ id: "chat.sdk.position" })} value={position} onChange={(e) => setPosition(e.target.value)} options={[{ value: "bottom-right", label: intl.formatMessage({ id: "chat.sdk.right" }) }, { value: "bottom-left", label: intl.formatMessage({ id: "chat.sdk.left" }) }]} />
        <Select label={intl.formatMessage({ id: "chat.sdk.language" })} value={lang} onChange={(e) => setLang(e.target.value)} options={LOCALES.map((l) => ({ value: l.code, label: l.name }))} />
        <label className="sdk-color">
          <span className="field__label">
            <FormattedMessage id="chat.sdk.color" />
          </span>
          <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
        </label>
      </div>
      <h2>
        <FormattedMessage id="chat.sdk.snippet" />
      </h2>
      <pre className="sdk-snippet">
        <code>{snippet}</code>
      </pre>
      <Button
        onClick={() =>
          void navigator.clipboard.writeText(snippet).then(
            () => toast.show(TOAST_MESSAGES.copied),
            () => toast.show("chat.options.copyFailed", "error"),
          )
        }
      >
        <FormattedMessage id="chat.sdk.copy" />
      </Button>
      <p className="muted sdk-preview-note">
        <FormattedMessage id="chat.sdk.preview" />
      </p>
    </main>
  );
}
