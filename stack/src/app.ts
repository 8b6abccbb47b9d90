// The app server moved to the frontend (frontend/server/app-server.ts); the stack only
// starts it. This re-export keeps older imports (e2e/lib/app.ts) working.
export * from "../../frontend/server/app-server.ts";
