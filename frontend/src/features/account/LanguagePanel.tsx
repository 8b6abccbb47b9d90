// The preferred language: saved on the profile (emails, defaults) and applied to the UI now.
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { useLocation, useNavigate } from "react-router";
import { Button, Select } from "../../components/ui";
import { useUpdateProfileMutation } from "../../data/profiles/profile-update-mutation";
import { type Profile } from "../../data/profiles/profile-query";
import { LOCALES, switchLocalePath, type LocaleCode } from "../../i18n/locales";
import { rememberLocale } from "../../lib/locale-cookie";
import { ErrorNote } from "../../components/ErrorNote";

export function LanguagePanel({ profile }: { profile: Profile }) {
  const intl = useIntl();
  const location = useLocation();
  const navigate = useNavigate();
  const update = useUpdateProfileMutation();
  const [lang, setLang] = useState<LocaleCode>(profile.preferred_language);
  return (
    <form
      className="panel form-stack"
      noValidate
      aria-labelledby="language-title"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { preferred_language: lang },
          {
            onSuccess: () => {
              rememberLocale(lang);
              navigate(switchLocalePath(location.pathname, location.search, location.hash, lang));
            },
          },
        );
      }}
    >
      <h2 id="language-title"><FormattedMessage id="account.language.title" /></h2>
      <p className="panel__intro"><FormattedMessage id="account.language.intro" /></p>
      <Select label={intl.formatMessage({ id: "account.language.label" })} value={lang} onChange={(e) => setLang(e.target.value as LocaleCode)} options={LOCALES.map((l) => ({ value: l.code, label: l.name }))} />
      <ErrorNote error={update.error} />
      <div className="form-actions"><Button type="submit" loading={update.isPending}><FormattedMessage id="teams.common.save" /></Button></div>
    </form>
  );
}
