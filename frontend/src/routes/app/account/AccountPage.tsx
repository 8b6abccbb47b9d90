// /app/account: profile, language, password, two-factor authentication, email and account deletion.
import { FormattedMessage } from "react-intl";
import { Loading } from "../../../components/ui";
import { useMyProfileQuery } from "../../../data/profiles/profile-query";
import { LanguagePanel } from "../../../features/account/LanguagePanel";
import { ProfilePanel } from "../../../features/account/ProfilePanel";
import { DeleteAccountPanel, EmailPanel, PasswordPanel } from "../../../features/account/SecurityPanels";
import { TwoFactorPanel } from "../../../features/account/TwoFactorPanel";
import { useSession } from "../../../lib/session";
import { ErrorNote } from "../../../components/ErrorNote";
import "../../../components/panels.css";

export default function AccountPage() {
  const { user } = useSession();
  const profile = useMyProfileQuery();
  const email = user?.email ?? "";
  return (
    <section className="page-section">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="account.title" /></h1>
          <p className="page-head__sub">{email}</p>
        </div>
      </div>
      {profile.isPending && <Loading />}
      {profile.isError && <ErrorNote error={profile.error} />}
      {profile.isSuccess && !profile.data && <ErrorNote error={{ message: "", code: "profile_missing" }} />}
      {profile.data && (
        <>
          <ProfilePanel key={profile.data.id} profile={profile.data} email={email} />
          <LanguagePanel profile={profile.data} />
        </>
      )}
      <PasswordPanel />
      <TwoFactorPanel />
      {email && <EmailPanel current={email} />}
      {email && <DeleteAccountPanel email={email} />}
    </section>
  );
}
