// Lints the TypeScript of the stack, the frontend, the SDK, scripts, tests and the Deno edge
// functions (which `deno check` also type-checks; their npm: imports are Deno's).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**", "**/dist/**", ".data/**", ".cache/**", "coverage/**",
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
);
