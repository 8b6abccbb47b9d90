// /bots/{botId} and /bots/{botId}/chats/{chatId}: the hosted chat page.
import { useParams } from "react-router";
import { ChatView } from "../../features/chat/ChatView";

export default function ChatPage() {
  const { botId, chatId } = useParams();
  return <ChatView botId={botId!} chatId={chatId} variant="page" />;
}
