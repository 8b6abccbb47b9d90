// The power-ups of one answer: loaded with the bot (service role, secrets included), offered to
// the model as tools or, without a model, matched by their example phrases (and the contact form
// offered when the knowledge has no answer); every call recorded
// and stored with the assistant's turn (power_up_calls), and what the visitor saw kept as the
// turn's actions (messages.actions).
import type { Db } from "../clients.ts";
import type { ChatAction, ChatEvents } from "../contracts/chat.ts";
import type { Json } from "../database.types.ts";
import { must } from "../db.ts";
import type { Logger } from "../log.ts";
import type { ToolCall, ToolSpec } from "../providers/types.ts";
import { runHttpAction, type SentRequest } from "./http.ts";
import type { ToolOutcome } from "./loop.ts";
import { notifyHandoff } from "./notify.ts";
import { needsModel, parsePowerUp, type PowerUp, type PowerUpRow, toolSpec } from "./settings.ts";

/** The events a power-up shows the visitor. */
export type PowerUpEvent = { [K in "tool" | "lead_form" | "link" | "handoff"]: { event: K; data: ChatEvents[K] } }[
  "tool" | "lead_form" | "link" | "handoff"
];

interface RecordedCall {
  /** The power_up_calls row's id, chosen here so the row can be written live and completed later. */
  id: string;
  /** Written while answering (the team saw it live); its message id follows in store(). */
  written: boolean;
  /** The live write in flight (store() waits for it). */
  writing: Promise<void> | null;
  powerUpId: string;
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  errorCode: string | null;
  request: SentRequest | null;
  result: string;
  durationMs: number;
}

/** A sentence for the visitor when an action fails (never the service's own text). */
const FAILED = "I couldn't reach that service just now, so I answered without it.";
const MAX_STORED_RESULT = 20_000;

export class PowerUpSession {
  readonly actions: ChatAction[] = [];
  readonly calls: RecordedCall[] = [];
  #pending: PowerUpEvent[] = [];

  constructor(
    readonly powerUps: PowerUp[],
    private readonly secrets: Map<string, Record<string, string>>,
    private readonly service: Db,
    private readonly context: { botId: string; chatId: string | null; log: Logger },
  ) {}

  get handedOver(): boolean {
    return this.actions.some((a) => a.type === "handoff");
  }

  /** The tools a model may call. */
  tools(): ToolSpec[] {
    return this.powerUps.map(toolSpec);
  }

  /** Visitor events produced since the last call (yielded by the engine between tokens). */
  drain(): PowerUpEvent[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  #show(ev: PowerUpEvent) {
    this.#pending.push(ev);
    this.actions.push({ type: ev.event, ...ev.data } as ChatAction);
  }

  /** Runs one call of the model (or of the extractive default). */
  async execute(call: ToolCall, signal?: AbortSignal): Promise<ToolOutcome> {
    const p = this.powerUps.find((x) => x.name === call.name);
    if (!p) return { output: `Error: there is no tool named "${call.name}".`, isError: true };
    if (p.type === "http") {
      const r = await runHttpAction(p.http, call.arguments, this.secrets.get(p.id) ?? {}, { signal });
      this.#record({
        powerUpId: p.id,
        name: p.name,
        arguments: call.arguments ?? { _raw: call.rawArguments.slice(0, 2000) },
        ok: r.ok,
        errorCode: r.errorCode,
        request: r.request,
        result: r.output.slice(0, MAX_STORED_RESULT),
        durationMs: r.durationMs,
      });
      this.#show({ event: "tool", data: { name: p.name, label: p.label || p.name, ok: r.ok, ...(r.ok ? {} : { message: FAILED }) } });
      if (!r.ok) this.context.log.warn("power_up_failed", { power_up_id: p.id, code: r.errorCode, status: r.status });
      return { output: r.output, isError: !r.ok };
    }
    this.#record({ powerUpId: p.id, name: p.name, arguments: call.arguments ?? {}, ok: true, errorCode: null, request: null, result: "shown", durationMs: 0 });
    if (p.type === "lead") {
      this.#show({
        event: "lead_form",
        data: { power_up_id: p.id, label: p.label || p.name, intro: p.lead.intro ?? null, fields: p.lead.fields, required: p.lead.required },
      });
      return { output: "The contact form is shown to the visitor.", isError: false };
    }
    if (p.type === "link") {
      this.#show({ event: "link", data: { power_up_id: p.id, label: p.link.link_label, url: p.link.link_url } });
      return { output: `A button to ${p.link.link_url} is shown to the visitor.`, isError: false };
    }
    await this.#handOver(p.handoff.handoff_text);
    return { output: "The conversation is handed to a person of the team. Say so briefly; do not answer further.", isError: false };
  }

  async #handOver(text: string) {
    this.#show({ event: "handoff", data: { text } });
    if (!this.context.chatId) return;
    const res = await this.service.rpc("request_handoff", { chat_id: this.context.chatId });
    if (res.error) {
      this.context.log.error("handoff_failed", { code: res.error.code, error: res.error.message });
      return;
    }
    if (res.data) {
      await notifyHandoff(this.service, this.context.botId, this.context.chatId).catch((e) =>
        this.context.log.warn("handoff_mail_failed", { error: String(e) })
      );
    }
  }

  /**
   * Without a model: the best power-up whose example phrases match the message. Lead forms, links
   * and handoff are shown; an http action runs only when it needs no parameters. Returns the text
   * the extractive answer should start with (the handoff's sentence), or null.
   */
  async offerWithoutModel(message: string): Promise<{ handoffText: string | null; output: string | null }> {
    const res = await this.service.rpc("match_power_ups", { bot_id: this.context.botId, query: message });
    if (res.error) {
      this.context.log.warn("power_up_match_failed", { code: res.error.code, error: res.error.message });
      return { handoffText: null, output: null };
    }
    const best = (res.data ?? []).map((m) => this.powerUps.find((p) => p.id === m.power_up_id)).find((p) => p && !needsModel(p));
    if (!best) return { handoffText: null, output: null };
    const { outcome } = await this.#offer(best);
    if (best.type === "handoff") return { handoffText: best.handoff.handoff_text, output: null };
    return { handoffText: null, output: best.type === "http" && !outcome.isError ? outcome.output : null };
  }

  /**
   * Without a model, when the knowledge holds no answer: the bot's contact form, whatever the
   * visitor wrote (an offer the visitor may ignore); nothing when this answer already showed the
   * visitor an action. A handoff is never started this way: it quiets the bot until the team hands
   * the chat back, so it stays the visitor's choice (its example phrases).
   */
  async offerContact(): Promise<{ call: ToolCall; outcome: ToolOutcome } | null> {
    if (this.actions.length) return null;
    const contact = this.powerUps.find((p) => p.type === "lead");
    if (!contact) return null;
    return await this.#offer(contact);
  }

  /** Runs a power-up the extractive default chose (no arguments: it has no model to fill them). */
  async #offer(p: PowerUp): Promise<{ call: ToolCall; outcome: ToolOutcome }> {
    const call: ToolCall = { id: "extractive", name: p.name, arguments: {}, rawArguments: "{}" };
    return { call, outcome: await this.execute(call) };
  }

  #row(c: RecordedCall, messageId: string | null) {
    return {
      id: c.id,
      power_up_id: c.powerUpId,
      bot_id: this.context.botId,
      chat_id: this.context.chatId,
      message_id: messageId,
      name: c.name,
      arguments: c.arguments as { [key: string]: Json },
      status: c.ok ? "ok" : "error",
      error_code: c.errorCode,
      request: c.request as unknown as Json,
      result: c.result,
      duration_ms: c.durationMs,
    };
  }

  /**
   * Keeps a call for the turn and, in a stored chat, writes it at once (realtime shows it in the
   * team's conversation view while the answer is still being written). The write runs beside the
   * model's next step, not before it; store() waits for it, and writes with the turn what it could
   * not write. It never fails the answer.
   */
  #record(call: Omit<RecordedCall, "id" | "written" | "writing">): void {
    const c: RecordedCall = { ...call, id: crypto.randomUUID(), written: false, writing: null };
    this.calls.push(c);
    if (!this.context.chatId) return;
    c.writing = (async () => {
      try {
        const res = await this.service.from("power_up_calls").insert(this.#row(c, null));
        if (res.error) this.context.log.warn("power_up_call_write_failed", { code: res.error.code, error: res.error.message });
        else c.written = true;
      } catch (e) {
        this.context.log.warn("power_up_call_write_failed", { error: String(e) });
      }
    })();
  }

  /** After the assistant turn is stored: its calls point at it (and any not written yet are). */
  async store(messageId: string | null): Promise<void> {
    await Promise.all(this.calls.map((c) => c.writing));
    const written = this.calls.filter((c) => c.written).map((c) => c.id);
    if (written.length && messageId) {
      must(await this.service.from("power_up_calls").update({ message_id: messageId }).in("id", written), "power-up calls update");
    }
    const rest = this.calls.filter((c) => !c.written);
    if (rest.length) must(await this.service.from("power_up_calls").insert(rest.map((c) => this.#row(c, messageId))), "power-up calls insert");
  }
}

/**
 * A session from power-up rows already read (enabled, of types the platform has not turned off)
 * and their http secrets by power-up id: the answering engine reads both with its first stage
 * (public.start_chat_turn).
 */
export function powerUpSession(
  rows: PowerUpRow[],
  secrets: Record<string, Record<string, string>>,
  service: Db,
  context: { botId: string; chatId: string | null; log: Logger },
): PowerUpSession {
  const powerUps = rows.map(parsePowerUp).filter((p): p is PowerUp => p !== null);
  return new PowerUpSession(powerUps, new Map(Object.entries(secrets)), service, context);
}
