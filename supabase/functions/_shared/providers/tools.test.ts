// Tool calling on every adapter, against local servers streaming each vendor's real tool-call
// format: the tools go out in the vendor's shape, the streamed call comes back whole with its
// parsed arguments, and the tool's result is sent back the vendor's way on the next step.
import assert from "node:assert/strict";
import { type ConversationTurn, createProvider, type GenerateEvent, type ProviderName, type ToolCall } from "./index.ts";
import { PROVIDER_VENDORS, startFakeProvider, type Vendor } from "./fake-servers.ts";

const kinds: ReadonlyArray<{ provider: ProviderName; vendor: Vendor }> = PROVIDER_VENDORS;

const tool = {
  name: "lookup_order",
  description: "Look up an order by its number",
  parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
};

async function collect(it: AsyncIterable<GenerateEvent>) {
  let text = "";
  const calls: ToolCall[] = [];
  for await (const ev of it) {
    if (ev.type === "token") text += ev.text;
    else if (ev.type === "tool_call") calls.push(ev.call);
  }
  return { text, calls };
}

/** Where each vendor puts the tool list, the call and the result in a request body. */
function wireTools(vendor: Vendor, body: Record<string, any>): string[] {
  if (vendor === "anthropic") return body.tools.map((t: any) => `${t.name}:${JSON.stringify(t.input_schema)}`);
  if (vendor === "google") {
    return body.tools[0].functionDeclarations.map((t: any) => `${t.name}:${JSON.stringify(t.parametersJsonSchema)}`);
  }
  return body.tools.map((t: any) => `${t.function.name}:${JSON.stringify(t.function.parameters)}`);
}

function wireResult(vendor: Vendor, body: Record<string, any>): { callName: string; result: string } {
  if (vendor === "anthropic") {
    const use = body.messages.at(-2).content.find((b: any) => b.type === "tool_use");
    const res = body.messages.at(-1).content.find((b: any) => b.type === "tool_result");
    assert.equal(res.tool_use_id, use.id);
    return { callName: use.name, result: res.content };
  }
  if (vendor === "google") {
    const call = body.contents.at(-2).parts.find((p: any) => p.functionCall).functionCall;
    const res = body.contents.at(-1).parts[0].functionResponse;
    assert.equal(res.name, call.name);
    return { callName: call.name, result: res.response.output };
  }
  const assistant = body.messages.at(-2);
  const result = body.messages.at(-1);
  assert.equal(result.role, "tool");
  assert.equal(result.tool_call_id, assistant.tool_calls[0].id);
  return { callName: assistant.tool_calls[0].function.name, result: result.content };
}

for (const { provider, vendor } of kinds) {
  Deno.test(`${provider}: calls a tool in the vendor's streaming format and reads its result back`, async () => {
    const server = startFakeProvider(vendor, [
      { kind: "tools", tokens: ["Let me check. "], calls: [{ name: "lookup_order", arguments: { order_id: "A-1001", note: "späť \"quoted\"" } }] },
      { kind: "stream", tokens: ["Your order ", "has shipped."] },
    ]);
    try {
      const p = createProvider({ provider, apiKey: "sk-test", baseUrl: server.baseUrl, backoffMs: 5 });
      const messages: ConversationTurn[] = [{ role: "user", content: "Where is order A-1001?" }];
      const step1 = await collect(p.generate({ system: "Be brief.", messages, tools: [tool], temperature: 0, model: "fake-model" }));
      assert.equal(step1.text, "Let me check. ");
      assert.equal(step1.calls.length, 1);
      assert.equal(step1.calls[0].name, "lookup_order");
      assert.deepEqual(step1.calls[0].arguments, { order_id: "A-1001", note: "späť \"quoted\"" });
      assert.deepEqual(wireTools(vendor, server.received[0].body), [`lookup_order:${JSON.stringify(tool.parameters)}`]);

      messages.push({ role: "assistant", content: step1.text, toolCalls: step1.calls });
      messages.push({ role: "tool", callId: step1.calls[0].id, name: "lookup_order", content: '{"status":"shipped"}', isError: false });
      const step2 = await collect(p.generate({ system: "Be brief.", messages, tools: [tool], temperature: 0, model: "fake-model" }));
      assert.equal(step2.text, "Your order has shipped.");
      assert.equal(step2.calls.length, 0);
      assert.deepEqual(wireResult(vendor, server.received[1].body), { callName: "lookup_order", result: '{"status":"shipped"}' });
    } finally {
      await server.close();
    }
  });
}

Deno.test("openai: several calls in one step keep their order and arguments; no tools means no tools field", async () => {
  const server = startFakeProvider("openai", [
    { kind: "tools", calls: [{ name: "a", arguments: { x: 1 } }, { name: "b", arguments: {} }] },
    { kind: "stream", tokens: ["plain"] },
  ]);
  try {
    const p = createProvider({ provider: "openai", apiKey: "k", baseUrl: server.baseUrl });
    const out = await collect(p.generate({ system: "", messages: [{ role: "user", content: "go" }], tools: [tool], temperature: 0, model: "m" }));
    assert.deepEqual(out.calls.map((c) => [c.name, c.arguments]), [["a", { x: 1 }], ["b", {}]]);
    await collect(p.generate({ system: "", messages: [{ role: "user", content: "go" }], temperature: 0, model: "m" }));
    assert.equal("tools" in server.received[1].body, false);
  } finally {
    await server.close();
  }
});
