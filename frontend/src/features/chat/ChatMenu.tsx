// The conversation menu: share the chat, copy the bot's link, download the transcript, start a
// new chat (with this bot or, for signed-in people on the page, another bot of its team).
import { lazy, Suspense, useState } from "react";
import { useIntl } from "react-intl";
import { Menu, TOAST_MESSAGES, useToast, type MenuItem } from "../../components/ui";
import { useChatShareMutation } from "../../data/chats/chat-share-mutation";
import { downloadTranscript } from "./download";

// Only signed-in people on the chat page pick another bot: the picker is its own chunk.
const BotPicker = lazy(() => import("./BotPicker").then((m) => ({ default: m.BotPicker })));

export interface ChatMenuProps {
  botId: string;
  chatId?: string;
  readOnly: boolean;
  /** Signed-in people on the chat page may switch to another bot. */
  canPickBot: boolean;
  botUrl: string;
  chatUrl: (chatId: string) => string;
  onNewChat: (botId?: string) => void;
}

export function ChatMenu({ botId, chatId, readOnly, canPickBot, botUrl, chatUrl, onNewChat }: ChatMenuProps) {
  const intl = useIntl();
  const toast = useToast();
  const share = useChatShareMutation();
  const [pickerOpen, setPickerOpen] = useState(false);

  async function copy(text: string, messageId: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.show(messageId);
    } catch {
      toast.show("chat.options.copyFailed", "error");
    }
  }

  async function shareChat(id: string) {
    try {
      await share.mutateAsync(id);
      await copy(chatUrl(id), TOAST_MESSAGES.chatUrlCopied);
    } catch {
      toast.show("chat.options.shareFailed", "error");
    }
  }

  async function download(id: string, format: "txt" | "md") {
    try {
      await downloadTranscript(id, format);
    } catch {
      toast.show("chat.options.downloadFailed", "error");
    }
  }

  const label = (id: string) => intl.formatMessage({ id });
  const items: MenuItem[] = [];
  if (chatId && !readOnly) items.push({ key: "share-chat", label: label("chat.options.shareChat"), onSelect: () => void shareChat(chatId) });
  items.push({ key: "share-link", label: label("chat.options.shareLink"), onSelect: () => void copy(botUrl, TOAST_MESSAGES.linkCopied) });
  if (chatId) {
    items.push({ key: "download-txt", label: label("chat.options.downloadTxt"), onSelect: () => void download(chatId, "txt") });
    items.push({ key: "download-md", label: label("chat.options.downloadMd"), onSelect: () => void download(chatId, "md") });
  }
  items.push({ key: "new-chat", label: label("chat.options.newChat"), onSelect: () => onNewChat() });
  if (canPickBot) items.push({ key: "other-bot", label: label("chat.options.otherBot"), onSelect: () => setPickerOpen(true) });

  return (
    <>
      <Menu className="chat-options" buttonLabel={label("chat.options.open")} label={<span aria-hidden="true">⋯</span>} items={items} />
      {pickerOpen && (
        <Suspense fallback={null}>
          <BotPicker botId={botId} onClose={() => setPickerOpen(false)} onPick={(id) => onNewChat(id)} />
        </Suspense>
      )}
    </>
  );
}
