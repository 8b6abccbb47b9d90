// Lints the TypeScript of the stack, the frontend, the SDK, scripts and tests.
// Deno functions are checked by `deno check`/`deno test` (their npm: imports are Deno's).
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**", "**/dist/**", ".data/**", ".cache/**", "coverage/**",
      "supabase/functions/**", "stack/test/fixture/supabase/functions/**", "**/database.types.ts",
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
);
