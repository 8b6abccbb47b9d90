// Liveness of the functions runtime: answers without touching the database.
Deno.serve(() => Response.json({ ok: true, function: "health-check", time: new Date().toISOString() }));
