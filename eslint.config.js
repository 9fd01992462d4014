// @ts-check
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * Dependencies point one way: protocol ← planner ← server, protocol ← designer (STYLE.md rule 1).
 * Each entry forbids a layer to import anything above it, not even a type.
 */
const layers = [
  {
    files: ["packages/protocol/**/*.ts"],
    forbidden: ["@waddle/planner", "@waddle/server", "@waddle/designer", "@waddle/cli", "@waddle/examples"],
    dirs: ["planner", "server", "designer", "apps"],
    io: true,
  },
  {
    files: ["packages/planner/**/*.ts"],
    forbidden: ["@waddle/server", "@waddle/designer", "@waddle/cli", "@waddle/examples"],
    dirs: ["server", "designer", "apps"],
    extra: ["express", "socket.io", "better-sqlite3", "node:sqlite"],
  },
  {
    files: ["server/**/*.ts"],
    forbidden: ["@waddle/designer", "@waddle/cli"],
    dirs: ["designer", "apps/cli"],
  },
  {
    files: ["designer/**/*.{ts,tsx}"],
    forbidden: ["@waddle/planner", "@waddle/server", "@waddle/cli", "@waddle/examples"],
    dirs: ["planner", "server", "apps"],
  },
];

const boundaryMessage = "Dependencies point one way: protocol ← planner ← server, protocol ← designer.";
const restrictImports = ({ forbidden, dirs, extra = [] }, io) => ({
  "no-restricted-imports": [
    "error",
    {
      paths: [...forbidden, ...extra].map((name) => ({ name, message: boundaryMessage })),
      patterns: [
        {
          group: [...forbidden.map((name) => `${name}/*`), ...dirs.map((dir) => `**/${dir}/src/**`)],
          message: boundaryMessage,
        },
        ...(io
          ? [
              {
                group: ["node:*", "fs", "path", "http", "https", "net", "child_process"],
                message: "The protocol is pure data: no I/O.",
              },
            ]
          : []),
      ],
    },
  ],
});
// Tests and scripts of the protocol may read files; its sources may not.
const boundaryConfigs = layers.flatMap((layer) =>
  layer.io
    ? [
        {
          files: layer.files,
          ignores: ["**/*.test.ts", "**/scripts/**"],
          rules: restrictImports(layer, true),
        },
        {
          files: ["packages/protocol/**/*.test.ts", "packages/protocol/scripts/**"],
          rules: restrictImports(layer, false),
        },
      ]
    : [{ files: layer.files, rules: restrictImports(layer, false) }],
);

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "test/e2e/artifacts/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-syntax": [
        "error",
        { selector: "TSEnumDeclaration", message: "Use `as const` objects or literal unions, never `enum`." },
      ],
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["designer/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
  ...boundaryConfigs,
);
