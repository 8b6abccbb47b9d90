// Display name and avatar (uploaded to the public avatars bucket under the user's folder).
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { useUpdateProfileMutation } from "../../data/profiles/profile-update-mutation";
import { type Profile } from "../../data/profiles/profile-query";
import { ErrorNote } from "../../components/ErrorNote";
import { AvatarPicker } from "../../components/FilePicker";
import "../../components/panels.css";
import { avatarSrc } from "../../lib/avatars";

export function ProfilePanel({ profile, email }: { profile: Profile; email: string }) {
  const intl = useIntl();
  const update = useUpdateProfileMutation();
  const [name, setName] = useState(profile.display_name ?? "");
  const [saved, setSaved] = useState(false);
  const [avatarError, setAvatarError] = useState<unknown>(null);
  const tooLong = name.trim().length > 100;
  const initial = (profile.display_name || email).slice(0, 1).toUpperCase();
  return (
    <section className="panel" aria-labelledby="profile-title">
      <h2 id="profile-title"><FormattedMessage id="account.profile.title" /></h2>
      <div className="form-stack">
        <div className="avatar-field">
          {profile.avatar_url ? <img className="avatar avatar--lg" src={avatarSrc(profile.avatar_url)} alt={intl.formatMessage({ id: "account.avatar.alt" })} /> : <span className="avatar avatar--lg" aria-hidden="true">{initial}</span>}
          <div className="form-stack" style={{ gap: "0.4rem" }}>
            <label className="field__label" htmlFor="avatar-file"><FormattedMessage id="account.avatar.label" /></label>
            <AvatarPicker id="avatar-file" kind="profile" save={(url) => update.mutateAsync({ avatar_url: url })} onError={setAvatarError} />
            <p className="form-note"><FormattedMessage id="account.avatar.rules" /></p>
            {profile.avatar_url && (
              <div><Button size="sm" theme="gray" onClick={() => update.mutate({ avatar_url: null })}><FormattedMessage id="account.avatar.remove" /></Button></div>
            )}
          </div>
        </div>
        <ErrorNote error={avatarError} />
        <form
          className="form-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setSaved(false);
            if (!tooLong) update.mutate({ display_name: name.trim() || null }, { onSuccess: () => setSaved(true) });
          }}
        >
          <Input label={intl.formatMessage({ id: "account.profile.displayName" })} value={name} maxLength={100} autoComplete="name" onChange={(e) => { setSaved(false); setName(e.target.value); }} error={tooLong ? intl.formatMessage({ id: "account.profile.nameTooLong" }) : undefined} />
          <ErrorNote error={update.error} />
          {saved && <p className="form-success" role="status"><FormattedMessage id="teams.common.saved" /></p>}
          <div className="form-actions"><Button type="submit" loading={update.isPending && update.variables?.display_name !== undefined}><FormattedMessage id="teams.common.save" /></Button></div>
        </form>
      </div>
    </section>
  );
}
