// Cookie banner and settings dialog. Rendered only in the browser after mount: the
// prerendered HTML is the same for everyone, the choice is per visitor.
import { useEffect, useState, useSyncExternalStore } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Dialog } from "../../components/ui";
import { necessaryCookies, optionalCookies, readConsent, writeConsent, type ConsentChoice } from "../../lib/consent";

let dialogOpen = false;
const listeners = new Set<() => void>();
function setDialogOpen(open: boolean) {
  dialogOpen = open;
  listeners.forEach((l) => l());
}
function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/**
 * While the banner is shown, the space it covers at the bottom of the viewport is kept in
 * the CSS variable --consent-banner-space (global.css pads the page by it), so everything
 * can be scrolled above the banner, a chat's composer included.
 */
function useReserveSpace(el: HTMLElement | null): void {
  useEffect(() => {
    if (!el) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty("--consent-banner-space", `${Math.max(0, Math.ceil(window.innerHeight - el.getBoundingClientRect().top))}px`);
    update();
    const ro = typeof ResizeObserver === "function" ? new ResizeObserver(update) : undefined;
    ro?.observe(el);
    window.addEventListener("resize", update);
    return () => {
      ro?.disconnect();
      window.removeEventListener("resize", update);
      root.style.removeProperty("--consent-banner-space");
    };
  }, [el]);
}

/** Opens the cookie settings dialog (footer link). */
export function useConsentDialog(): () => void {
  return () => setDialogOpen(true);
}

export function ConsentBanner() {
  const intl = useIntl();
  const [mounted, setMounted] = useState(false);
  const [choice, setChoice] = useState<ConsentChoice | null>(null);
  const open = useSyncExternalStore(subscribe, () => dialogOpen, () => false);
  const [selected, setSelected] = useState<string[]>([]);
  const [banner, setBanner] = useState<HTMLElement | null>(null);
  useReserveSpace(banner);

  useEffect(() => {
    const c = readConsent();
    setChoice(c);
    setSelected(c?.accepted ?? []);
    setMounted(true);
  }, []);

  useEffect(() => {
    if (open) setSelected(choice?.accepted ?? []);
  }, [open, choice]);

  if (!mounted) return null;

  const save = (accepted: string[]) => {
    setChoice(writeConsent(accepted));
    setDialogOpen(false);
  };
  const all = optionalCookies.map((c) => c.id);

  return (
    <>
      {!choice && !open && (
        <section ref={setBanner} className="consent-banner" aria-label={intl.formatMessage({ id: "consent.title" })} data-testid="consent-banner">
          <div className="consent-banner__text">
            <h2 className="consent-banner__title">
              <FormattedMessage id="consent.title" />
            </h2>
            <p>
              <FormattedMessage id="consent.body" />
            </p>
          </div>
          <div className="consent-banner__actions">
            <Button theme="transparent" size="sm" onClick={() => setDialogOpen(true)}>
              <FormattedMessage id="consent.settings" />
            </Button>
            <Button theme="secondary" size="sm" onClick={() => save([])}>
              <FormattedMessage id="consent.necessaryOnly" />
            </Button>
            <Button theme="primary" size="sm" onClick={() => save(all)}>
              <FormattedMessage id="consent.acceptAll" />
            </Button>
          </div>
        </section>
      )}
      <Dialog
        open={open}
        onClose={() => setDialogOpen(false)}
        title={<FormattedMessage id="consent.settingsTitle" />}
        footer={
          <>
            <Button theme="secondary" onClick={() => save([])}>
              <FormattedMessage id="consent.necessaryOnly" />
            </Button>
            <Button theme="primary" onClick={() => save(selected)}>
              <FormattedMessage id="consent.save" />
            </Button>
          </>
        }
      >
        <p className="muted">
          <FormattedMessage id="consent.body" />
        </p>
        <fieldset className="consent-group">
          <legend>
            <FormattedMessage id="consent.necessary" />
          </legend>
          {necessaryCookies.map((c) => (
            <label key={c.id} className="checkbox">
              <input type="checkbox" checked disabled data-cookie-id={c.id} />
              <span>
                <FormattedMessage id={c.label} />
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="consent-group">
          <legend>
            <FormattedMessage id="consent.optional" />
          </legend>
          {optionalCookies.map((c) => (
            <label key={c.id} className="checkbox">
              <input
                type="checkbox"
                data-cookie-id={c.id}
                checked={selected.includes(c.id)}
                onChange={(e) => setSelected((s) => (e.target.checked ? [...s, c.id] : s.filter((x) => x !== c.id)))}
              />
              <span>
                <FormattedMessage id={c.label} />
              </span>
            </label>
          ))}
        </fieldset>
      </Dialog>
    </>
  );
}
