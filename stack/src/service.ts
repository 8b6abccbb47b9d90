// The contract between the gateway and the services the stack implements
// (auth, storage, realtime, mail). Each lives in stack/src/<name>/index.ts and
// exports `createService(ctx)`; until a module exists its path answers 503.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { StackOptions, SupabaseConfig } from "./config.ts";
import type { Db } from "./db.ts";
import type { Claims, Keys, ApiRole, JwtError } from "./keys.ts";
import type { Logger } from "./log.ts";

export interface ServiceContext {
  options: StackOptions;
  config: SupabaseConfig;
  keys: Keys;
  /** Superuser pool; use db.asCaller(claims, fn) to run SQL as the caller under RLS. */
  db: Db;
  log: Logger;
  /** Public base URL of the gateway, e.g. http://127.0.0.1:54321 */
  apiUrl: string;
  /** Superuser connection string (for logical replication and the like). */
  dbUrl: string;
  /** Other services, for cross-service calls (auth sends mail through `mail`). */
  services: Map<string, Service>;
}

export interface GatewayRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path after the service prefix, starting with "/" (e.g. "/token" for /auth/v1/token). */
  path: string;
  query: URLSearchParams;
  /** Role of the apikey (anon or service_role), null when none or invalid. */
  apikeyRole: ApiRole | null;
  /** Verified claims of the Authorization bearer (or the apikey when no bearer), null if none. */
  claims: Claims | null;
  /** Set when a bearer was present but did not verify. */
  authError?: JwtError;
  /** Raw bearer token, translated from sb_ keys to their JWT. */
  token?: string;
}

export interface Service {
  handle(r: GatewayRequest): Promise<void>;
  /** WebSocket upgrades under the service's prefix (realtime). */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer, r: Omit<GatewayRequest, "res">): void;
  health?(): Promise<boolean>;
  stop?(): Promise<void>;
  /** Any extra public API the service offers to other services. */
  [key: string]: unknown;
}

export type ServiceFactory = (ctx: ServiceContext) => Promise<Service>;
