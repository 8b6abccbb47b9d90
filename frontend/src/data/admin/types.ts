// The shapes of admin_get_user and admin_get_bot (jsonb built in migration
// 20261128020000_admin_lists; the generated type only says Json).
import type { AuditEntry } from "./audit-log-query";

export interface AdminChatSummary {
  id: string;
  bot_id?: string;
  bot_name?: string;
  user_id?: string | null;
  title: string | null;
  channel: string;
  message_count: number;
  created_at: string;
}

export interface AdminUserDetail {
  id: string;
  email: string | null;
  display_name: string | null;
  preferred_language: string | null;
  is_anonymous: boolean;
  created_at: string;
  email_confirmed_at: string | null;
  last_sign_in_at: string | null;
  banned_until: string | null;
  is_platform_admin: boolean;
  identities: { provider: string; email: string | null; created_at: string | null; last_sign_in_at: string | null }[];
  teams: { id: string; name: string; slug: string; personal: boolean; plan_id: string; role: string; bot_count: number }[];
  chat_count: number;
  recent_chats: AdminChatSummary[];
  audit: AuditEntry[];
}

export interface AdminBotDetail {
  id: string;
  name: string;
  description: string | null;
  team: { id: string; name: string; slug: string; plan_id: string; personal: boolean };
  visibility: string;
  gallery_listed: boolean;
  language: string;
  model_provider: string;
  model: string | null;
  created_at: string;
  updated_at: string;
  created_by: { id: string; email: string | null } | null;
  chat_count: number;
  message_count: number;
  data_source_count: number;
  channels: { id: string; type: string; name: string; enabled: boolean; status: string; message_count: number }[];
  recent_chats: AdminChatSummary[];
  audit: AuditEntry[];
}

/** Is this user banned right now? */
export function isBanned(user: { banned_until: string | null }, now = Date.now()): boolean {
  return !!user.banned_until && Date.parse(user.banned_until) > now;
}
