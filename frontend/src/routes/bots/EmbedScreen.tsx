// The chat inside an iframe, when the app's router shows it (the server gives these URLs the
// visitor's lean entry, src/visitor; this is the same screen on a navigation inside the app).
import { useParams } from "react-router";
import type { ChatVariant } from "../../features/chat/ChatView";
import { EmbedChat } from "../../features/chat/EmbedChat";
import { RouterChatNav } from "../../features/chat/RouterChatNav";

export function EmbedScreen({ variant }: { variant: Exclude<ChatVariant, "page"> }) {
  const { botId } = useParams();
  return (
    <RouterChatNav>
      <EmbedChat botId={botId!} variant={variant} />
    </RouterChatNav>
  );
}
