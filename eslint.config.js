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
const restrictImports = ({ forbidden, dirs, extra = [] }, io, morePatterns = []) => ({
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
        ...morePatterns,
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

/**
 * Whatever takes a `RunContext` is a step of the loop and lives under the planner's `loop/` (its README:
 * "Where a new file goes"), so only `loop/**` may import `loop/run-context`. It repeats the planner's
 * boundary rule, since a later `no-restricted-imports` replaces an earlier one for the same files.
 */
const plannerLayer = layers.find((layer) => layer.files.includes("packages/planner/**/*.ts"));
const runContextConfig = {
  files: ["packages/planner/src/**/*.ts"],
  ignores: ["packages/planner/src/loop/**"],
  rules: restrictImports(plannerLayer, false, [
    {
      regex: "(^|/)loop/run-context(\\.js)?$",
      message:
        "Only loop/** may import RunContext: a file that takes one is a step and goes in loop/ or loop/steps/ " +
        "(packages/planner/README.md).",
    },
  ]),
};

const noEnum = {
  selector: "TSEnumDeclaration",
  message: "Use `as const` objects or literal unions, never `enum`.",
};

/**
 * SQLite write transactions begin IMMEDIATE (server/src/store/sqlite-write-transaction.ts): a deferred one
 * that reads first fails at once with SQLITE_BUSY while the checkpoint worker holds the write lock.
 */
const sqliteTransactionConfig = {
  files: ["server/src/**/*.ts"],
  // The test shows the deferred behaviour this guards against.
  ignores: [
    "server/src/store/sqlite-write-transaction.ts",
    "server/src/store/sqlite-write-transaction.test.ts",
  ],
  rules: {
    "no-restricted-syntax": [
      "error",
      noEnum,
      ...["callee.object.name", "callee.object.property.name"].map((path) => ({
        selector: `CallExpression[callee.property.name='transaction'][${path}='db']`,
        message: "Use writeTransaction(db, body) (store/sqlite-write-transaction.ts): it begins IMMEDIATE.",
      })),
    ],
  },
};

/**
 * Files that fit in a head (issue 30): a source file over 400 lines, counted as `wc -l` counts them, holds
 * more than one concept. Tests, fixtures under `testing/` and the e2e and bench suites under `test/` may
 * run longer.
 */
const maxLinesConfig = {
  files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
  ignores: ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "**/*.d.ts", "test/**"],
  rules: { "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }] },
};

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
      "no-restricted-syntax": ["error", noEnum],
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
  runContextConfig,
  sqliteTransactionConfig,
  maxLinesConfig,
);
