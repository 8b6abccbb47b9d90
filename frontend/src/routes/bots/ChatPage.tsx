// /bots/{botId} and /bots/{botId}/chats/{chatId}: the hosted chat page.
import { useParams } from "react-router";
import { ChatView } from "../../features/chat/ChatView";
import { BackToApp } from "../../features/site/BackToApp";

export default function ChatPage() {
  const { botId, chatId } = useParams();
  return (
    <>
      <BackToApp botId={botId!} />
      <ChatView botId={botId!} chatId={chatId} variant="page" />
    </>
  );
}
