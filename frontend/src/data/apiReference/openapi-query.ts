// The HTTP API's OpenAPI document, as the `api` function serves it (GET
// /functions/v1/api/v1/openapi.json, no key needed): the one source of the reference
// the site renders, so it can never drift from what the API accepts.
import { useQuery } from "@tanstack/react-query";
import { functionUrl, requestFunction } from "../../lib/functions";

export const OPENAPI_PATH = "api/v1/openapi.json";

export const apiReferenceKeys = {
  all: ["apiReference"] as const,
  document: () => [...apiReferenceKeys.all, "openapi"] as const,
};

/** The part of OpenAPI 3.1 the reference reads. */
export interface SchemaObject {
  type?: string | string[];
  format?: string;
  description?: string;
  required?: string[];
  properties?: Record<string, SchemaObject>;
  items?: SchemaObject;
  enum?: unknown[];
  $ref?: string;
  minLength?: number;
  maxLength?: number;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

export const openApiUrl = () => functionUrl(OPENAPI_PATH);

export async function fetchOpenApiDocument(signal?: AbortSignal): Promise<OpenApiDocument> {
  const res = await requestFunction(OPENAPI_PATH, { method: "GET", anonymous: true, signal });
  return (await res.json()) as OpenApiDocument;
}

export function useOpenApiQuery() {
  return useQuery({ queryKey: apiReferenceKeys.document(), queryFn: ({ signal }) => fetchOpenApiDocument(signal), staleTime: 5 * 60_000 });
}
