// The images of a turn as small thumbnails that open the full image in a new tab, for the visitor
// and for the bot's team. Until the links arrive, or for images the viewer may not read (a shared
// chat's), the turn says how many images it had.
import { FormattedMessage, useIntl } from "react-intl";
import { useChatImageUrlsQuery } from "../data/chats/chat-image-urls-query";
import "./image-thumbs.css";

export function ImageThumbs({ paths }: { paths: readonly string[] }) {
  const intl = useIntl();
  const urls = useChatImageUrlsQuery(paths);
  const shown = paths.flatMap((path) => {
    const url = urls.data?.[path];
    return url ? [{ path, url }] : [];
  });
  if (!shown.length) {
    return (
      <p className="chat-msg__meta">
        <FormattedMessage id="chat.images.count" values={{ count: paths.length }} />
      </p>
    );
  }
  return (
    <ul className="chat-thumbs" aria-label={intl.formatMessage({ id: "chat.images.count" }, { count: paths.length })}>
      {shown.map(({ path, url }, i) => (
        <li key={path}>
          <a href={url} target="_blank" rel="noopener noreferrer">
            <img src={url} alt={intl.formatMessage({ id: "chat.images.thumbAlt" }, { n: i + 1, count: paths.length })} loading="lazy" decoding="async" width={96} height={96} />
          </a>
        </li>
      ))}
    </ul>
  );
}
