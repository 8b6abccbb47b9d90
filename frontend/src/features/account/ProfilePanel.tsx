// Display name and avatar (uploaded to the public avatars bucket under the user's folder).
import { useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { Button, Input } from "../../components/ui";
import { AVATAR_TYPES, checkAvatarFile, uploadAvatar } from "../../data/profiles/avatar-upload";
import { useUpdateProfileMutation, type Profile } from "../../data/profiles/profile";
import { ErrorNote } from "../teams/ErrorNote";
import "../teams/teams.css";

export function ProfilePanel({ profile, email }: { profile: Profile; email: string }) {
  const intl = useIntl();
  const update = useUpdateProfileMutation();
  const [name, setName] = useState(profile.display_name ?? "");
  const [saved, setSaved] = useState(false);
  const [avatarError, setAvatarError] = useState<unknown>(null);
  const [uploading, setUploading] = useState(false);
  const tooLong = name.trim().length > 100;
  const initial = (profile.display_name || email).slice(0, 1).toUpperCase();
  return (
    <section className="panel" aria-labelledby="profile-title">
      <h2 id="profile-title"><FormattedMessage id="account.profile.title" /></h2>
      <div className="form-stack">
        <div className="avatar-field">
          {profile.avatar_url ? <img className="avatar avatar--lg" src={profile.avatar_url} alt={intl.formatMessage({ id: "account.avatar.alt" })} /> : <span className="avatar avatar--lg" aria-hidden="true">{initial}</span>}
          <div className="form-stack" style={{ gap: "0.4rem" }}>
            <label className="field__label" htmlFor="avatar-file"><FormattedMessage id="account.avatar.label" /></label>
            <input
              id="avatar-file"
              type="file"
              accept={AVATAR_TYPES.join(",")}
              disabled={uploading}
              onChange={async (e) => {
                const file = e.target.files?.[0];
                e.target.value = "";
                if (!file) return;
                setAvatarError(null);
                const problem = checkAvatarFile(file);
                if (problem) return setAvatarError({ code: `avatar_${problem}`, message: "" });
                setUploading(true);
                try {
                  const url = await uploadAvatar(file, "profile");
                  await update.mutateAsync({ avatar_url: url });
                } catch (err) {
                  setAvatarError(err);
                } finally {
                  setUploading(false);
                }
              }}
            />
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
          <div className="form-actions"><Button type="submit" loading={update.isPending && !uploading}><FormattedMessage id="teams.common.save" /></Button></div>
        </form>
      </div>
    </section>
  );
}
