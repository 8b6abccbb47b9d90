// /app/my-chats: every chat the signed-in user had with any bot, newest first, searchable.
import { useMemo, useState } from "react";
import { FormattedMessage, useIntl } from "react-intl";
import { buttonClassName, EmptyState, Input, Loading } from "../../../components/ui";
import { useMyChatsQuery, type MyChat } from "../../../data/chats/my-chats-query";
import { useSession } from "../../../lib/session";
import { ConversationList } from "../../../features/conversations/ConversationList";
import { LocalizedLink } from "../../../components/LocalizedLink";
import { ErrorNote } from "../../../components/ErrorNote";
import "../../../components/panels.css";
import "../../../features/conversations/conversations.css";

const titleOf = (c: MyChat) => c.title || c.first_message;

export default function MyChatsPage() {
  const intl = useIntl();
  const { user } = useSession();
  const chats = useMyChatsQuery(user?.id);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => {
    const q = query.trim().toLocaleLowerCase();
    const all = chats.data ?? [];
    return q ? all.filter((c) => [titleOf(c), c.bot?.name].some((s) => s?.toLocaleLowerCase().includes(q))) : all;
  }, [chats.data, query]);

  return (
    <section className="page-section">
      <div className="page-head">
        <div>
          <h1><FormattedMessage id="conversations.myChats.title" /></h1>
          <p className="page-head__sub"><FormattedMessage id="conversations.myChats.intro" /></p>
        </div>
      </div>
      {(chats.data?.length ?? 0) > 0 && (
        <div className="my-chats__search">
          <Input type="search" label={intl.formatMessage({ id: "conversations.myChats.search" })} value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
      )}
      {(!user || chats.isPending) && <Loading />}
      {chats.isError && <ErrorNote error={chats.error} />}
      {chats.data && chats.data.length === 0 && (
        <EmptyState
          title={<FormattedMessage id="conversations.myChats.emptyTitle" />}
          description={<FormattedMessage id="conversations.myChats.emptyText" />}
          action={<LocalizedLink className={buttonClassName({})} to="/gallery"><FormattedMessage id="conversations.myChats.browse" /></LocalizedLink>}
        />
      )}
      {chats.data && chats.data.length > 0 && shown.length === 0 && (
        <p className="form-note" role="status"><FormattedMessage id="conversations.myChats.noMatch" values={{ query: query.trim() }} /></p>
      )}
      {shown.length > 0 && (
        <ConversationList
          label={intl.formatMessage({ id: "conversations.myChats.title" })}
          items={shown}
          titleOf={(c) => titleOf(c as MyChat)}
          hrefOf={(c) => `/bots/${c.bot_id}/chats/${c.id}`}
        />
      )}
    </section>
  );
}
