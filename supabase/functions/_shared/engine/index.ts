// The answering engine: every way Parley answers a message goes through `startAnswer`
// (the chat function, channels, the test runner, tasks). Stages, in order:
//   limits   the caller's own rate limits, the bot, its power-ups (limits.ts, SQL start_chat_turn)
//   open     open or create the chat and store the user's turn   (open.ts, SQL open_chat_turn)
//   retrieve the bot's best passages for the question            (retrieve.ts; for a stored turn
//            on text alone in the same call as open: SQL open_chat_turn_and_match)
//   provider choose the model provider or the extractive default (provider.ts)
//   generate stream the answer                                   (generate.ts)
//   store    store the answer with its sources and usage         (store.ts)
//   stream   frame the events as SSE, JSON or a collected answer (stream.ts)
// `startAnswer` runs the stages up to `open` and throws an HttpError when the turn is refused,
// so callers can answer 4xx before streaming; the rest runs while `events` is read.
import { createServiceClient, type Db } from "../clients.ts";
import { HttpError } from "../http.ts";
import { createLogger, describe } from "../log.ts";
import type { Passage } from "../providers/extractive.ts";
import { ProviderError, type Usage } from "../providers/index.ts";
import { limitFromEnv } from "../rate-limit.ts";
import { toProviderError } from "../providers/retry.ts";
import { generate } from "./generate.ts";
import { type LoadedImage, loadImages } from "./images.ts";
import { startTurn } from "./limits.ts";
import { messageProblem } from "./message.ts";
import { history, openChannelTurn, type OpenedTurn, openVisitorTurn, type Retrieved } from "./open.ts";
import { chooseProvider } from "./provider.ts";
import { retrieve, retrievalEmbedding } from "./retrieve.ts";
import { FifoSlots } from "./slots.ts";
import { storeAnswer } from "./store.ts";
import { answerWithoutModel, powerUpSession, quietDone } from "../powerUps/engine.ts";
import type { Answer, AnswerEvent, AnswerRequest } from "./types.ts";

export type * from "./types.ts";
export { collectAnswer, jsonAnswer, sseAnswer } from "./stream.ts";
export { messageProblem } from "./message.ts";

/** ~10 turns of context. */
const HISTORY_MESSAGES = 20;
const MATCH_COUNT = 8;
/**
 * The longest answer a model may stream (what `messages.content` holds). A model (or a team's own
 * base URL) that streams on is stopped there, not buffered until the worker runs out of memory.
 */
export const MAX_ANSWER_CHARS = 100_000;
/** The whole answer's time, tool calls included (PARLEY_ANSWER_DEADLINE_MS): a stream that never ends is stopped. */
const ANSWER_DEADLINE_MS = 300_000;

/**
 * Turns of this worker between their start and their stored question (stages 0 and 1), at
 * once; the rest wait first come first served. A burst of visitors otherwise interleaves at
 * PostgREST's connection pool and every turn of the burst ends late (bench/chat/load.mjs, issue
 * 17). The answer itself (the model's stream, the store) runs outside: a slow model holds no slot.
 */
const turnSlots = new FifoSlots("PARLEY_TURN_CONCURRENCY", 8);

export function startAnswer(request: AnswerRequest): Promise<Answer> {
  return turnSlots.run(() => openAnswer(request));
}

async function openAnswer(request: AnswerRequest): Promise<Answer> {
  const started = request.startedAt ?? performance.now();
  const timings: Record<string, number> = {};
  /** ms from the request's start to the end of `stage` (the first time it is marked). */
  const mark = (stage: string) => {
    timings[stage] ??= Math.round(performance.now() - started);
  };
  mark("turn_slot");
  const log = request.log ?? createLogger("engine");
  const { conversation } = request;
  const message = request.message.trim();
  const problem = messageProblem(message);
  if (problem) throw new HttpError(400, "invalid_request", problem);
  if (request.images?.length && conversation.kind !== "visitor") {
    throw new HttpError(400, "invalid_image", "Only visitors attach images from their own folder");
  }

  const service = createServiceClient();
  // Stage 0 (one round trip): the caller's limits, the bot's settings and power-ups, a visitor's turn pass.
  const first = await startTurn(service, request.botId, conversation);
  const { bot, turnPass } = first;
  mark("limits_and_bot");
  // The hosted page and the widget are the bot's web channel: switched off by its owners,
  // visitors get 403 channel_disabled and nothing is stored.
  if (conversation.kind === "visitor" && !bot.webEnabled) {
    throw new HttpError(403, "channel_disabled", "This bot is not available on the website right now.");
  }
  const images: LoadedImage[] = conversation.kind === "visitor" && request.images?.length
    ? await loadImages(conversation.client, conversation.userId, request.images)
    : [];
  if (images.length) mark("images");

  // Who reads the bot's knowledge: the visitor's own client (RLS), else the service side
  // (channels, test runner, tasks).
  const reader: Db = conversation.kind === "visitor" ? conversation.client : service;
  // The stages that do not depend on the stored turn start now, beside it (stage 1, open): the
  // retrieval (as the reader: RLS decides what it finds) and the provider. Their results are used
  // only once open_chat_turn accepted the turn; a refused turn leaves them unread. The chat's
  // history and whether a person has taken it over come back with the stored turn (one round trip).
  // The power-ups' session learns the chat's id once the turn is stored (its calls are written with it).
  const powerUpContext = { botId: bot.id, chatId: null as string | null, log: log.with({ bot_id: bot.id }) };
  const timed = <T>(stage: string, p: Promise<T>) => {
    p.then(() => mark(stage), () => mark(stage));
    return p;
  };
  const powerUps = powerUpSession(first.powerUps, first.powerUpSecrets, service, powerUpContext);
  // A turn that is stored and retrieves on text alone (the team embeds no questions) retrieves in
  // the call that stores it (open_chat_turn_and_match, as the same reader: one round trip fewer
  // per message, issue 17); otherwise retrieval runs beside the open, as its own request.
  const storesTurn = conversation.kind !== "ephemeral";
  const embedding = storesTurn ? await retrievalEmbedding(service, bot.team_id) : undefined;
  const together = storesTurn && embedding === null;
  const early = {
    retrieved: together ? null : timed("retrieve", retrieve(service, reader, bot, message, MATCH_COUNT, log, embedding)),
    choice: timed("provider", chooseProvider(service, bot)),
  };
  // A refused turn never reads them: keep their failures from being unhandled.
  for (const p of Object.values(early)) p?.catch(() => {});

  // Stage 1: open (and, together, retrieve).
  const matchCount = together ? MATCH_COUNT : undefined;
  let turn: OpenedTurn | null = null;
  if (conversation.kind === "visitor") {
    turn = await openVisitorTurn(bot.id, message, images, conversation, turnPass, HISTORY_MESSAGES, matchCount);
  } else if (conversation.kind === "channel") {
    turn = await openChannelTurn(service, bot.id, message, conversation, HISTORY_MESSAGES, matchCount);
  }
  mark("open");
  if (together) mark("retrieve");
  const retrieval: Promise<Retrieved> = early.retrieved ?? Promise.resolve(turn?.retrieved ?? { data: [], error: null });
  const messageId = crypto.randomUUID();
  const signal = request.signal ?? new AbortController().signal;
  const turnLog = log.with({ bot_id: bot.id, chat_id: turn?.chatId ?? null, conversation: conversation.kind });
  powerUpContext.chatId = turn?.chatId ?? null;
  powerUpContext.log = turnLog;

  async function* run(): AsyncGenerator<AnswerEvent> {
    // A chat handed to a person: the bot stays quiet until the team hands it back.
    if (turn?.needsHuman) {
      yield quietDone(messageId, started);
      return;
    }
    const [retrieved, choice] = await Promise.all([retrieval, early.choice]);
    const earlier = conversation.kind === "ephemeral"
      ? conversation.history ?? []
      : turn
      ? history(turn.historyRows, turn.userMessageId, HISTORY_MESSAGES)
      : [];
    if (retrieved.error) {
      // Retrieval failed (e.g. a statement timeout): say so rather than pretend nothing matched.
      turnLog.error("retrieval_failed", { code: retrieved.error.code, error: retrieved.error.message });
      yield {
        event: "error",
        data: { code: "retrieval_failed", message: "I couldn't search my knowledge right now. Please try again in a moment." },
      };
      return;
    }
    const passages = (retrieved.data ?? []) as Passage[];
    // The model's stream ends with the caller's signal, at the answer's deadline, or when the
    // answer is too long (below).
    const tooLong = new AbortController();
    const deadline = AbortSignal.timeout(limitFromEnv("PARLEY_ANSWER_DEADLINE_MS", ANSWER_DEADLINE_MS));
    const modelSignal = AbortSignal.any([signal, deadline, tooLong.signal]);
    const offered = choice.kind === "extractive" ? await answerWithoutModel(powerUps, message) : null;
    const generation = offered?.generation ?? generate({
      bot,
      choice,
      passages,
      history: earlier,
      message,
      images: images.map(({ mime, data }) => ({ mime, data })),
      signal: modelSignal,
      powerUps,
    });
    mark("model_call");
    yield* powerUps.drain();

    let content = "";
    let usage: Usage = { prompt_tokens: 0, completion_tokens: 0 };
    let firstTokenMs: number | null = null;
    let failure: ProviderError | null = null;
    try {
      for await (const ev of generation.events) {
        if (ev.type === "token") {
          firstTokenMs ??= Math.round(performance.now() - started);
          mark("first_token");
          if (content.length + ev.text.length > MAX_ANSWER_CHARS) {
            tooLong.abort();
            throw new ProviderError("provider_error", generation.provider, null, `the answer passed ${MAX_ANSWER_CHARS} characters`);
          }
          content += ev.text;
          yield { event: "token", data: { text: ev.text } };
        } else if (ev.type === "done") usage = ev.usage;
        else yield* powerUps.drain();
      }
    } catch (err) {
      failure = deadline.aborted && !signal.aborted && !tooLong.signal.aborted
        ? new ProviderError("provider_timeout", generation.provider, null, "the answer took longer than its deadline")
        : err instanceof ProviderError
        ? err
        : toProviderError(generation.provider, err, signal);
      turnLog.warn("provider_failed", { provider: generation.provider, code: failure.code, detail: failure.message });
    }
    if (!failure) yield { event: "sources", data: generation.sources };
    const latencyMs = Math.round(performance.now() - started);
    if (turn) {
      await storeAnswer(service, {
        id: messageId,
        chatId: turn.chatId,
        botId: bot.id,
        content,
        sources: failure ? [] : generation.sources,
        usage,
        latencyMs,
        firstTokenMs,
        model: generation.model,
        provider: generation.provider,
        error: failure ? { code: failure.code, detail: failure.message } : null,
        actions: powerUps.actions,
      });
    }
    if (turn) await powerUps.store(messageId);
    mark("stored");
    if (failure) yield { event: "error", data: { code: failure.code, message: failure.visitorMessage } };
    else yield { event: "done", data: { message_id: messageId, usage, latency_ms: latencyMs, first_token_ms: firstTokenMs } };
  }

  async function* guarded(): AsyncGenerator<AnswerEvent> {
    try {
      yield* run();
    } catch (e) {
      turnLog.error("answer_failed", { error: describe(e) });
      yield { event: "error", data: { code: "internal_error", message: "Something went wrong on our side. Please try again." } };
    }
  }

  return {
    meta: turn ? { chat_id: turn.chatId, message_id: messageId, user_message_id: turn.userMessageId } : null,
    messageId,
    events: guarded(),
    timings,
  };
}
