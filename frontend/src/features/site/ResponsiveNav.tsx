// The header navigation of the marketing site and of the app: a row of links on wide
// screens, a "Menu" button with a drop-down panel on narrow ones (the breakpoint is the
// variant's, in global.css). One <nav> landmark either way. The panel is a disclosure:
// the button says whether it is open (aria-expanded) and which list it controls; Escape
// closes it and returns focus to the button; leaving it (focus, click outside, a new page)
// closes it too.
// Whether the row fits is measured, not guessed from a breakpoint: link texts differ from
// language to language ("Datenquellen", "Πηγές δεδομένων"), so when the row would overflow
// the header at any width, the nav collapses into the menu button, and opens up again when
// the header has grown wide enough (site-nav.css).
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useLocation } from "react-router";
import { cx } from "../../components/ui";
import { LocalizedNavLink } from "../../components/LocalizedLink";
import "./site-nav.css";

// useLayoutEffect warns during the prerender (no DOM there); the measurement is browser-only.
const useBrowserLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/** True while the row of links does not fit its header (measured on every resize). */
function useCollapsed(navRef: RefObject<HTMLElement | null>, listRef: RefObject<HTMLUListElement | null>, locale: string, pathname: string): boolean {
  const [collapsed, setCollapsed] = useState(false);
  // Header width the row needed when it collapsed: it opens again once the header is that wide.
  const needed = useRef(0);
  useBrowserLayoutEffect(() => {
    setCollapsed(false);
    needed.current = 0;
  }, [locale]);
  useBrowserLayoutEffect(() => {
    const nav = navRef.current;
    const header = nav?.parentElement;
    if (!nav || !header || typeof ResizeObserver === "undefined") return;
    const check = () => {
      const list = listRef.current;
      if (!collapsed) {
        if (list && list.offsetParent !== null && list.scrollWidth > list.clientWidth + 1) {
          needed.current = header.clientWidth + (list.scrollWidth - list.clientWidth);
          setCollapsed(true);
        }
      } else if (header.clientWidth >= needed.current) {
        setCollapsed(false);
      }
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(header);
    // The row also shrinks when its neighbours grow in a header of the same width (the account
    // area once the session is known, "Get started" for a visitor).
    if (listRef.current) observer.observe(listRef.current);
    return () => observer.disconnect();
  }, [collapsed, locale, pathname, navRef, listRef]); // a new page bolds another link: measure again
  return collapsed;
}

export interface NavEntry {
  to: string;
  /** Message id of the link text. */
  id: string;
  /** Matches only the exact path (NavLink `end`). */
  end?: boolean;
  /** Shown after the text, inside the link (a count with its own accessible text). */
  badge?: ReactNode;
}

export function ResponsiveNav({ variant, links, extra }: { variant: "site" | "app"; links: readonly NavEntry[]; extra?: ReactNode }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const navRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();
  const { pathname } = useLocation();
  const collapsed = useCollapsed(navRef, listRef, intl.locale, pathname);

  useEffect(() => setOpen(false), [pathname]);

  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (!navRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", onDoc);
    return () => document.removeEventListener("mousedown", onDoc);
  }, [open]);

  function toggle() {
    const next = !open;
    setOpen(next);
    // Move into the opened panel so keyboard users land on the first link.
    if (next) requestAnimationFrame(() => navRef.current?.querySelector<HTMLElement>(".primary-nav__list a")?.focus());
  }

  return (
    <nav
      ref={navRef}
      className={cx("primary-nav", `primary-nav--${variant}`, variant === "site" ? "site-nav" : "app-nav", collapsed && "primary-nav--collapsed", open && "primary-nav--open")}
      aria-label={intl.formatMessage({ id: "nav.main" })}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && e.relatedTarget && !navRef.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="icon-button primary-nav__toggle"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={intl.formatMessage({ id: "nav.menu" })}
        onClick={toggle}
      >
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
        </svg>
      </button>
      <div id={listId} className="primary-nav__panel">
        <ul ref={listRef} className="primary-nav__list">
          {links.map((item) => (
            <li key={item.to}>
              <LocalizedNavLink to={item.to} end={item.end} className={variant === "site" ? "site-nav__link" : "app-nav__link"}>
                <FormattedMessage id={item.id} />
                {item.badge}
              </LocalizedNavLink>
            </li>
          ))}
        </ul>
        {extra && <div className="primary-nav__extra">{extra}</div>}
      </div>
    </nav>
  );
}
