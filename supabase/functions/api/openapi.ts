// The HTTP API's OpenAPI 3.1 document, served at GET /functions/v1/api/v1/openapi.json
// and rendered by the app on /channels/api and in the docs.
export function openApiDocument(serverUrl: string) {
  const error = {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
      },
    },
  };
  const source = {
    type: "object",
    required: ["chunk_id", "document_id", "title", "excerpt"],
    properties: {
      chunk_id: { type: "string", format: "uuid" },
      document_id: { type: "string", format: "uuid" },
      title: { type: "string" },
      url: { type: ["string", "null"] },
      excerpt: { type: "string" },
    },
  };
  const usage = { type: "object", properties: { prompt_tokens: { type: "integer" }, completion_tokens: { type: "integer" } } };
  const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley HTTP API",
      version: "1.0.0",
      description:
        "Ask a Parley bot from your own code. Authenticate with a bot's API key (Bot > Channels > HTTP API) as `Authorization: Bearer pk_...`. " +
        "Answers come whole as JSON, or token by token as Server-Sent Events with the same events as the web chat: meta, token*, sources, then done or error.",
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths: {
      "/v1/chat": {
        post: {
          operationId: "chat",
          summary: "Send a message to the bot and get its answer",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ChatRequest" } } },
          },
          responses: {
            "200": {
              description: "The answer. `text/event-stream` when the request asks for it (Accept or `stream: true`).",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/ChatAnswer" } },
                "text/event-stream": {
                  schema: { type: "string" },
                  description:
                    "event: meta (conversation_id, chat_id, message_id, user_message_id), event: token ({text}), event: sources ([Source]), " +
                    "then event: done ({message_id, usage, latency_ms, first_token_ms}) or event: error ({code, message}).",
                },
              },
            },
            "400": errorResponse("The body is not a valid request"),
            "401": errorResponse("No API key, or a revoked or unknown one"),
            "403": errorResponse("The key belongs to another bot, or the bot's API channel is turned off"),
            "404": errorResponse("No such conversation for this key"),
            "413": errorResponse("The body is too large"),
            "429": {
              description: "Over the key's per-minute limit; retry after Retry-After seconds",
              headers: { "Retry-After": { schema: { type: "integer" } } },
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
            "502": errorResponse("The model failed after the message was stored"),
          },
        },
      },
      "/v1/openapi.json": {
        get: { operationId: "openapi", summary: "This document", security: [], responses: { "200": { description: "OpenAPI 3.1" } } },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "A bot's API key, pk_..." } },
      schemas: {
        ChatRequest: {
          type: "object",
          required: ["message"],
          properties: {
            bot_id: { type: "string", format: "uuid", description: "Optional: must be the key's bot" },
            message: { type: "string", minLength: 1, maxLength: 4000 },
            conversation_id: { type: "string", format: "uuid", description: "Continue a conversation this key started" },
            stream: { type: "boolean", description: "Answer as Server-Sent Events (same as Accept: text/event-stream)" },
          },
          additionalProperties: false,
        },
        ChatAnswer: {
          type: "object",
          required: ["conversation_id", "message_id", "content", "sources"],
          properties: {
            conversation_id: { type: "string", format: "uuid" },
            chat_id: { type: "string", format: "uuid" },
            message_id: { type: "string", format: "uuid" },
            content: { type: "string" },
            sources: { type: "array", items: { $ref: "#/components/schemas/Source" } },
            usage,
            latency_ms: { type: ["integer", "null"] },
            first_token_ms: { type: ["integer", "null"] },
          },
        },
        Source: source,
        Error: error,
      },
    },
  };
}
