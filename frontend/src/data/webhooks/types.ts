import type { Tables } from "../../lib/database";

export type WebhookEndpoint = Pick<Tables<"webhook_endpoints">,
  "id" | "bot_id" | "url" | "events" | "enabled" | "description" | "failure_count" | "disabled_reason" | "last_success_at" | "last_failure_at" | "created_at">;
export const ENDPOINT_COLUMNS = "id, bot_id, url, events, enabled, description, failure_count, disabled_reason, last_success_at, last_failure_at, created_at";

export type WebhookDelivery = Pick<Tables<"webhook_deliveries">,
  "id" | "endpoint_id" | "event_id" | "status" | "attempt" | "next_attempt_at" | "response_status" | "response_excerpt" | "error" | "duration_ms" | "delivered_at" | "created_at"> & {
  webhook_events: Pick<Tables<"webhook_events">, "type" | "version" | "data" | "created_at"> | null;
};
export const DELIVERY_COLUMNS =
  "id, endpoint_id, event_id, status, attempt, next_attempt_at, response_status, response_excerpt, error, duration_ms, delivered_at, created_at, webhook_events(type, version, data, created_at)";

/** The event types an endpoint may subscribe to (public.webhook_event_types()). */
export const WEBHOOK_EVENT_TYPES = [
  "chat.created", "message.created", "feedback.created", "lead.created", "handoff.requested",
  "data_source.synced", "data_source.failed", "test_run.completed", "task.completed",
] as const;
