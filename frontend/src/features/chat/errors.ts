// Which message a visitor sees for an error of the chat engine (codes from the chat README).
export function chatErrorMessageId(code: string): string {
  if (code === "rate_limited") return "chat.error.rateLimited";
  if (code === "sign_in_rate_limited") return "chat.error.busy";
  if (code === "provider_rate_limited") return "chat.error.providerBusy";
  if (code.startsWith("provider_")) return "chat.error.provider";
  if (code === "bot_not_found" || code === "chat_not_found") return "chat.error.notFound";
  if (code === "channel_disabled") return "chat.error.channelDisabled";
  if (code === "invalid_image" || code === "upload_failed") return "chat.error.image";
  if (code === "invalid_request" || code === "body_too_large") return "chat.error.invalid";
  if (code === "session_required") return "chat.error.session";
  return "chat.error.generic";
}
