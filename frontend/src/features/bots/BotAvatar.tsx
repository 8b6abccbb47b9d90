import { avatarSrc } from "../../lib/avatars";

export function BotAvatar({ name, url, large }: { name: string; url: string | null; large?: boolean }) {
  const cls = `avatar${large ? " avatar--lg" : ""}`;
  return url ? <img className={cls} src={avatarSrc(url)} alt="" /> : <span className={cls} aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>;
}
