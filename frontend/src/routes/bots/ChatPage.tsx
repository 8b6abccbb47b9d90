// /bots/{botId} and /bots/{botId}/chats/{chatId}: the hosted chat page, when the app's router
// shows it (the server gives these URLs the visitor's lean entry, src/visitor).
import { useParams } from "react-router";
import { ChatView } from "../../features/chat/ChatView";
import { RouterChatNav } from "../../features/chat/RouterChatNav";
import { BackToApp } from "../../features/site/BackToApp";

export default function ChatPage() {
  const { botId, chatId } = useParams();
  return (
    <RouterChatNav>
      <BackToApp botId={botId!} />
      <ChatView botId={botId!} chatId={chatId} variant="page" />
    </RouterChatNav>
  );
}
