// The `power-ups` function (POST, as a signed-in team owner or admin; authorised in SQL):
//   /functions/v1/power-ups/test       run an HTTP power-up with test arguments (the settings page's console)
//   /functions/v1/power-ups/reply      a person of the team replies in a chat (role human; the chat stays with people)
//   /functions/v1/power-ups/hand-back  the bot answers again in the chat
// Errors: 400 invalid_request / invalid_settings / power_up_not_http, 401 session_required,
// 403 forbidden (a member who may read but not manage), 404 power_up_not_found / chat_not_found.

export interface PowerUpTestRequest {
  power_up_id: string;
  /** The parameters to send (checked against the power-up's JSON Schema). */
  arguments: Record<string, unknown>;
  /** Test unsaved settings instead of the stored ones (same shape as power_ups.settings for http). */
  settings?: Record<string, unknown>;
}

export interface PowerUpTestAnswer {
  ok: boolean;
  /** invalid_arguments | invalid_template | blocked_address | timeout | network_error | too_large | http_error | invalid_json */
  error_code: string | null;
  /** The request exactly as sent, every secret masked; null when the arguments were refused. */
  request: { method: string; url: string; headers: Record<string, string>; body: string | null } | null;
  status: number | null;
  /** What the model would read (the response path's part, capped), or the error sentence. */
  output: string;
  duration_ms: number;
}

export interface HandoffReplyRequest {
  chat_id: string;
  /** 1..10000 characters. */
  content: string;
}

export interface HandoffBackRequest {
  chat_id: string;
}

export interface HandoffAnswer {
  ok: true;
  /** The stored human turn (reply only). */
  message_id?: string;
}
