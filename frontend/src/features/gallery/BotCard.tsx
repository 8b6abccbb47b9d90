import { LocalizedLink } from "../../components/LocalizedLink";
import type { GalleryBot } from "../../data/bots/gallery-bots-query";
import { avatarSrc } from "../../lib/avatars";
import { languageName } from "../../i18n/locales";

export function BotAvatar({ bot, size = 48 }: { bot: GalleryBot; size?: number }) {
  if (bot.avatar_url)
    return <img className="avatar" src={avatarSrc(bot.avatar_url)} alt="" width={size} height={size} loading="lazy" />;
  return (
    <span className="avatar avatar--initial" style={{ width: size, height: size }} aria-hidden="true">
      {bot.name.slice(0, 1).toUpperCase()}
    </span>
  );
}

export function BotCard({ bot }: { bot: GalleryBot }) {
  return (
    <li className="card card--link bot-card">
      <LocalizedLink to={`/gallery/${bot.id}`} className="card__link">
        <BotAvatar bot={bot} />
        <h2 className="card__title">{bot.name}</h2>
        {bot.description && <p className="card__text">{bot.description}</p>}
        {bot.language && <span className="badge">{languageName(bot.language)}</span>}
      </LocalizedLink>
    </li>
  );
}
