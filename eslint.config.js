// Lints the TypeScript of the stack, the frontend, the SDK, scripts, tests and the Deno edge
// functions (which `deno check` also type-checks; their npm: imports are Deno's).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";


// The frontend's layers (frontend/README.md): routes -> features -> data -> lib, with shared
// pieces in components/. A feature never imports another feature, and only data/ and lib/
// build Supabase queries (.from, .rpc, .storage.from, .channel, functions.invoke).
const up = (dir) => [`../${dir}`, `../${dir}/*`, `../../${dir}`, `../../${dir}/*`, `../../../${dir}/*`];
const layer = (dirs, message) => ({ group: dirs.flatMap(up), message });
const noQueries = [
  { selector: "CallExpression[callee.property.name='rpc']", message: "Only frontend/src/data and lib build Supabase queries: add a fetcher in data/<resource>/." },
  { selector: "CallExpression[callee.property.name='channel']", message: "Listen with useRealtimeChannel (lib/realtime) from a data/ hook." },
  { selector: "CallExpression[callee.property.name='from']:not([callee.object.name=/^(Array|Object|Buffer|Uint8Array)$/])", message: "Only frontend/src/data and lib build Supabase queries: add a fetcher in data/<resource>/." },
  { selector: "CallExpression[callee.object.property.name='functions'][callee.property.name='invoke']", message: "Call edge functions with lib/functions (callFunction, streamFunction)." },
];
const frontendBoundaries = [
  {
    files: ["frontend/src/**/*.{ts,tsx}"],
    ignores: ["frontend/src/data/**", "frontend/src/lib/**"],
    rules: { "no-restricted-syntax": ["error", ...noQueries] },
  },
  {
    files: ["frontend/src/lib/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [layer(["data", "features", "routes", "app", "components"], "lib/ is the bottom layer: it imports no app code.")] }] },
  },
  {
    files: ["frontend/src/data/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [layer(["features", "routes", "app", "components"], "data/ imports only lib/ and other data/ folders.")] }] },
  },
  {
    files: ["frontend/src/components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [layer(["features", "routes", "app"], "components/ are shared pieces: they import lib/, data/ and each other only.")] }] },
  },
  {
    files: ["frontend/src/features/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(["routes"], "Features are used by routes, never the other way round."),
            // The shell (app/) composes features; a feature may only read the matched route's entry.
            { group: ["../../app/*", "!../../app/handle"], message: "Features do not import the app shell: shared state belongs in lib/." },
            // "../<other feature>/...": one level up from a feature folder is features/ itself.
            { regex: "^\\.\\./(?!\\.\\./)", message: "Features do not import each other: move the shared piece to components/, data/ or lib/." },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**", "**/dist/**", "**/dist-ssr/**", ".data/**", ".cache/**", "coverage/**",
      "stack/test/fixture/supabase/functions/**", "**/database.types.ts",
      "bench/**/results/**", "e2e/artifacts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
      "no-control-regex": "off",
    },
  },
  // The edge functions (Deno): Deno's and the edge runtime's globals, no Node globals, and
  // no `any` outside tests (rows come typed from database.types.ts).
  {
    files: ["supabase/functions/**/*.ts"],
    languageOptions: { globals: { ...globals.browser, Deno: "readonly", EdgeRuntime: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["supabase/functions/**/*.test.ts", "supabase/functions/**/test-helpers.ts", "supabase/functions/**/test-fixtures.ts", "supabase/functions/_shared/testing.ts", "supabase/functions/_shared/providers/fake-servers.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  ...frontendBoundaries,
);
