// Phoenix channel frames as realtime-js speaks them: vsn 1.0.0 sends JSON objects
// {join_ref, ref, topic, event, payload}; vsn 2.0.0 sends JSON arrays
// [join_ref, ref, topic, event, payload] plus binary broadcast frames
// (client push: kind 3 "userBroadcastPush"; server push: kind 4 "userBroadcast").

export type Vsn = "1.0.0" | "2.0.0";

export interface Frame {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast's user payload: JSON, or raw bytes (binary frames only). */
export type BroadcastBody = { kind: "json"; value: unknown } | { kind: "binary"; value: Buffer };

export interface BroadcastMessage {
  event: string;
  body: BroadcastBody;
  meta?: Record<string, unknown>;
}

export class FrameError extends Error {
  constructor(message: string) {
    super(message);
  }
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
const ENCODING_BINARY = 0;
const ENCODING_JSON = 1;

function str(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  throw new FrameError("join_ref and ref must be strings");
}

/** Parses a text frame; throws FrameError on anything that is not a Phoenix message. */
export function decodeText(text: string, vsn: Vsn): Frame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FrameError("frame is not valid JSON");
  }
  let join_ref: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown;
  if (Array.isArray(value)) {
    if (vsn !== "2.0.0" || value.length !== 5) throw new FrameError("array frames need vsn 2.0.0 and 5 elements");
    [join_ref, ref, topic, event, payload] = value;
  } else if (value && typeof value === "object") {
    ({ join_ref, ref, topic, event, payload } = value as Record<string, unknown>);
  } else {
    throw new FrameError("frame must be a JSON object or array");
  }
  if (typeof topic !== "string" || typeof event !== "string") throw new FrameError("topic and event must be strings");
  if (payload === undefined || payload === null) payload = {};
  if (typeof payload !== "object" || Array.isArray(payload)) throw new FrameError("payload must be an object");
  return { join_ref: str(join_ref), ref: str(ref), topic, event, payload };
}

/** Parses a binary "userBroadcastPush" frame into a broadcast push. */
export function decodeBinary(buf: Buffer): { frame: Frame; message: BroadcastMessage } {
  if (buf.length < 7 || buf[0] !== KIND_USER_BROADCAST_PUSH) throw new FrameError("unknown binary frame kind");
  const lens = [buf[1]!, buf[2]!, buf[3]!, buf[4]!, buf[5]!];
  const encoding = buf[6]!;
  let offset = 7;
  const parts: string[] = [];
  for (const len of lens) {
    if (offset + len > buf.length) throw new FrameError("binary frame is truncated");
    parts.push(buf.subarray(offset, offset + len).toString("utf8"));
    offset += len;
  }
  const [joinRef, ref, topic, event, metadata] = parts as [string, string, string, string, string];
  const rest = buf.subarray(offset);
  let body: BroadcastBody;
  if (encoding === ENCODING_JSON) {
    try {
      body = { kind: "json", value: rest.length ? JSON.parse(rest.toString("utf8")) : {} };
    } catch {
      throw new FrameError("binary frame JSON payload is not valid JSON");
    }
  } else if (encoding === ENCODING_BINARY) {
    body = { kind: "binary", value: Buffer.from(rest) };
  } else {
    throw new FrameError("unknown binary payload encoding");
  }
  let meta: Record<string, unknown> | undefined;
  if (metadata) {
    try {
      meta = JSON.parse(metadata) as Record<string, unknown>;
    } catch {
      throw new FrameError("binary frame metadata is not valid JSON");
    }
  }
  return {
    frame: { join_ref: joinRef || null, ref: ref || null, topic, event: "broadcast", payload: {} },
    message: { event, body, meta },
  };
}

export function encodeText(frame: Frame, vsn: Vsn): string {
  if (vsn === "2.0.0") return JSON.stringify([frame.join_ref, frame.ref, frame.topic, frame.event, frame.payload]);
  return JSON.stringify(frame);
}

/** Encodes a server-to-client broadcast ("userBroadcast", kind 4) for vsn 2.0.0 sockets. */
export function encodeBroadcastBinary(topic: string, message: BroadcastMessage): Buffer {
  const t = Buffer.from(topic, "utf8");
  const e = Buffer.from(message.event, "utf8");
  const m = Buffer.from(message.meta && Object.keys(message.meta).length ? JSON.stringify(message.meta) : "", "utf8");
  if (t.length > 255 || e.length > 255 || m.length > 255) return Buffer.alloc(0);
  const payload =
    message.body.kind === "binary" ? message.body.value : Buffer.from(JSON.stringify(message.body.value ?? {}), "utf8");
  const header = Buffer.from([
    KIND_USER_BROADCAST,
    t.length,
    e.length,
    m.length,
    message.body.kind === "binary" ? ENCODING_BINARY : ENCODING_JSON,
  ]);
  return Buffer.concat([header, t, e, m, payload]);
}

/** The JSON form of a broadcast (vsn 1.0.0 sockets, and names too long for a binary frame). */
export function broadcastPayload(message: BroadcastMessage): Record<string, unknown> | null {
  if (message.body.kind === "binary") return null; // V1 sockets cannot represent binary payloads
  const p: Record<string, unknown> = { type: "broadcast", event: message.event, payload: message.body.value };
  if (message.meta) p.meta = message.meta;
  return p;
}
