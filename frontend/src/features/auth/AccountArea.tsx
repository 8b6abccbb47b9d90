// The header's account area: "Log in / Get started" for visitors (and anonymous bot
// visitors), a user menu (account, my chats, sign out) for signed-in users.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useNavigate } from "react-router";
import { buttonClassName, Menu } from "../../components/ui";
import { LocalizedLink, useLocalePath } from "../../components/LocalizedLink";
import { useSession } from "../../lib/session";
import { useAuthDeps } from "./deps";
import "./auth.css";

export function AccountArea() {
  const intl = useIntl();
  const { status, user } = useSession();
  const { client } = useAuthDeps();
  const navigate = useNavigate();
  const lp = useLocalePath();
  const [signingOut, setSigningOut] = useState(false);

  if (status === "loading") return <span className="account-area" aria-hidden="true" />;
  if (!user || user.is_anonymous) {
    return (
      <span className="account-area">
        <LocalizedLink to="/app/auth/login" className={buttonClassName({ theme: "transparent", size: "sm" })}>
          <FormattedMessage id="nav.login" />
        </LocalizedLink>
        <LocalizedLink to="/app/auth/register" className={buttonClassName({ theme: "primary", size: "sm" })}>
          <FormattedMessage id="nav.getStarted" />
        </LocalizedLink>
      </span>
    );
  }

  const meta = user.user_metadata as Record<string, unknown> | undefined;
  const name = (typeof meta?.display_name === "string" && meta.display_name) || user.email || "";

  async function signOut() {
    if (signingOut) return;
    setSigningOut(true);
    try {
      await (await client()).auth.signOut();
    } finally {
      setSigningOut(false);
      navigate(lp("/"), { replace: true });
    }
  }

  return (
    <span className="account-area" data-testid="account-menu">
      <Menu
        label={<span className="account-area__name">{name}</span>}
        buttonLabel={intl.formatMessage({ id: "auth.menu.label" }, { name })}
        items={[
          {
            key: "account",
            label: intl.formatMessage({ id: "auth.menu.account" }),
            onSelect: () => navigate(lp("/app/account")),
          },
          {
            key: "chats",
            label: intl.formatMessage({ id: "auth.menu.myChats" }),
            onSelect: () => navigate(lp("/app/my-chats")),
          },
          { key: "signout", label: intl.formatMessage({ id: "auth.menu.signOut" }), onSelect: () => void signOut() },
        ]}
      />
    </span>
  );
}
