// Runs inside Deno, one process per edge function. Supabase's Edge Runtime gives
// each function's `Deno.serve` its own listener; here Deno.serve is pointed at the
// Unix socket the stack chose (PARLEY_FUNCTION_SOCKET), else at a free loopback port,
// and reports it back to the stack on stdout.
const entry = Deno.env.get("PARLEY_FUNCTION_ENTRY");
if (!entry) throw new Error("PARLEY_FUNCTION_ENTRY is not set");

const realServe = Deno.serve.bind(Deno) as (...args: unknown[]) => Deno.HttpServer;
let served = false;

// deno-lint-ignore no-explicit-any
(Deno as any).serve = (...args: unknown[]) => {
  let handler: unknown;
  let options: Record<string, unknown> = {};
  if (typeof args[0] === "function") {
    handler = args[0];
    options = (args[1] as Record<string, unknown>) ?? {};
  } else {
    options = (args[0] as Record<string, unknown>) ?? {};
    handler = typeof args[1] === "function" ? args[1] : options.handler;
  }
  if (served) throw new Error("Deno.serve was called twice in one function");
  served = true;
  const socket = Deno.env.get("PARLEY_FUNCTION_SOCKET");
  // The function's own address options are replaced: the stack's gateway is its only caller.
  const { hostname: _h, port: _p, path: _s, transport: _t, ...rest } = options;
  return realServe(
    socket
      ? { ...rest, path: socket, onListen: () => console.log("PARLEY_FUNCTION_READY unix") }
      : {
        ...rest,
        hostname: "127.0.0.1",
        port: 0,
        onListen: ({ port }: { port: number }) => console.log(`PARLEY_FUNCTION_READY ${port}`),
      },
    handler,
  );
};

await import(entry);
if (!served) console.log("PARLEY_FUNCTION_NO_SERVE");
