import { readFileSync } from "node:fs";
import {
  exportAgentTypeScript,
  getExportNeeds,
  getModuleLabel,
  toCommentText,
} from "./export-agent-typescript.js";
import type { ExportBundle } from "./get-export-bundle.js";
import { readExportRuntime } from "./export-runtime.js";
import { getPackageVersions } from "./get-package-versions.js";

/** The `run.ts` of every project: no spec text in it, so nothing of the spec can become code here. */
const RUN_TS = `// Runs the exported agent: npx tsx run.ts "your question". Reads .env when there is one.
import { existsSync } from "node:fs";
import { loadEnvFile } from "node:process";
import { run, spec } from "./agent.js";

if (existsSync(".env")) loadEnvFile(".env");

const query = process.argv.slice(2).join(" ").trim() || spec.sampleQueries[0] || "";
if (query === "") {
  console.error('Give a question: npx tsx run.ts "…"');
  process.exit(2);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > 200 ? \`\${text.slice(0, 199)}…\` : text;
}

const outcome = await run(query, {
  onEvent: (event) => console.log(\`[\${event.seq}] \${event.type} \${preview(event.data)}\`),
});
if (outcome.kind === "finish") {
  console.log(\`\\nAnswer (\${outcome.reason}):\\n\${outcome.payload.answer}\`);
  process.exitCode = outcome.reason === "answer_complete" ? 0 : 1;
} else {
  console.log(\`\\nPaused (\${outcome.reason}): resume token \${outcome.resumeToken}\`);
  process.exitCode = 3;
}
`;

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2023",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
    },
    include: ["*.ts", "tools/*.ts"],
    exclude: ["node_modules", "vendor"],
  },
  null,
  2,
)}\n`;

/**
 * The install scripts of the project's dependencies, declared for npm's `allowScripts` (npm 11) so that
 * `npm install` runs them without asking for an approval: esbuild's postinstall (under tsx) checks its
 * platform binary and fetches it when the optional package did not install. No other dependency has one.
 */
const ALLOW_SCRIPTS = { esbuild: true };

/** Markdown-safe one-line text for the README (comment rules, and no backticks). */
const toReadmeText = (text: string) => toCommentText(text).replaceAll("`", "'");

function getEnvExample(bundle: ExportBundle): string {
  const needs = getExportNeeds([bundle.spec, ...bundle.subagents]);
  const lines = [
    "# Copy to .env and fill in. run.ts reads it; nothing here is ever written into agent.ts.",
    "# Without OPENAI_API_KEY the agent runs on the embedded offline model.",
    "OPENAI_API_KEY=",
    "# OPENAI_BASE_URL=https://api.openai.com/v1",
    ...needs.llmKeyEnvs.map((name) => `${name}=`),
    ...needs.secretNames.map((name) => `WADDLE_SECRET_${name}=`),
    "# More hosts for http tools, comma-separated (agent.ts already allows the ones its tools name):",
    "# WADDLE_HTTP_ALLOW=",
  ];
  if (needs.mcpServers.length > 0) {
    lines.push(
      `# MCP servers used: ${needs.mcpServers.join(", ")}. Inline JSON or a file path, in the mcpServers format:`,
      `WADDLE_MCP_SERVERS={"mcpServers":{${needs.mcpServers.map((name) => `"${name}":{"command":"…","args":[]}`).join(",")}}}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function getReadme(bundle: ExportBundle): string {
  const needs = getExportNeeds([bundle.spec, ...bundle.subagents]);
  const missingTools = bundle.moduleTools.filter((tool) => !tool.projectPath).map(getModuleLabel);
  const notes = [
    ...(missingTools.length > 0
      ? [
          `- Module tools whose files the exporting server did not have: ${missingTools.map(toReadmeText).join(", ")}. Pass them to \`createRuntime({ moduleTools: [...] })\`.`,
        ]
      : []),
    ...(bundle.missingAgents.length > 0
      ? [`- Subagents that were not saved: ${bundle.missingAgents.join(", ")}; their agent tools fail.`]
      : []),
    ...(needs.templatedHosts.length > 0
      ? [
          `- http tools whose host comes from args: ${needs.templatedHosts.join(", ")}. List their hosts in WADDLE_HTTP_ALLOW.`,
        ]
      : []),
  ];
  return [
    `# ${toReadmeText(bundle.spec.name)}`,
    "",
    "Exported from Waddle: the agent as a TypeScript project that runs in your own process.",
    "",
    "Needs Node 20.19 or later and access to the npm registry (or a cache holding the packages in",
    "`package.json`). Nothing else: the Waddle runtime is in `vendor/`.",
    "",
    "```sh",
    "npm install",
    "cp .env.example .env   # then fill in the keys you use",
    'npx tsx run.ts "your question"',
    "```",
    "",
    "- `agent.ts`: the agent spec and its subagents (as JSON), its module tools (imported from `tools/`), and",
    "  `run(query, options)` / `createRuntime(options)` over `@waddle/server/runtime`.",
    "- `vendor/`: @waddle/protocol, @waddle/planner and @waddle/server/runtime, each one bundled ESM file with",
    "  its type declarations, installed by `npm install` through the `file:` dependencies in `package.json`.",
    "- `run.ts`: reads the question from the command line, prints every event and the answer.",
    "- Keys and secrets come from the environment (`.env.example` lists them) or from the options",
    "  (`secrets`, `mcpServers`, `env`); they are never written into these files.",
    `- Tools: ${bundle.spec.tools.map((tool) => `${tool.name} (${tool.impl.kind})`).join(", ") || "none"}.`,
    ...(bundle.subagents.length > 0
      ? [`- Subagents: ${bundle.subagents.map((agent) => agent.id).join(", ")}.`]
      : []),
    ...(bundle.spec.guards.length > 0
      ? [
          `- Guards (in the spec, run by the runtime): ${bundle.spec.guards.map((guard) => toReadmeText(`${guard.name} (${guard.on}, ${guard.check.kind}, ${guard.action})`)).join(", ")}.`,
        ]
      : []),
    ...(notes.length > 0 ? ["", "## To do by hand", "", ...notes] : []),
    "",
  ].join("\n");
}

/**
 * The files of a `format=ts-project` export: package.json with exact versions, agent.ts, run.ts, the module
 * tools' files, tsconfig.json, README.md, .env.example, and the Waddle runtime under `vendor/` (bundled by
 * `npm run build`, since @waddle/* are not published): package.json points at it with `file:` and lists only
 * published npm packages besides, so `npm install` works on any machine. `runtimeDir` is for tests.
 */
export function exportTsProject(
  bundle: ExportBundle,
  options: { runtimeDir?: string } = {},
): Record<string, string> {
  const runtime = readExportRuntime(options.runtimeDir);
  const versions = getPackageVersions();
  const packageJson = {
    name: bundle.spec.id,
    version: "0.1.0",
    private: true,
    type: "module",
    description: `Waddle agent ${bundle.spec.id}, exported`,
    scripts: { start: "tsx run.ts", typecheck: "tsc" },
    engines: { node: ">=20.19" },
    dependencies: Object.fromEntries(
      [
        ...Object.entries(runtime.manifest.packages).map(([name, folder]) => [
          name,
          `file:./vendor/${folder}`,
        ]),
        ...Object.entries(runtime.manifest.dependencies),
      ].sort(([a], [b]) => (a! < b! ? -1 : 1)),
    ) as Record<string, string>,
    devDependencies: { "@types/node": versions["@types/node"], typescript: versions.typescript },
    allowScripts: ALLOW_SCRIPTS,
  };
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify(packageJson, null, 2)}\n`,
    "agent.ts": exportAgentTypeScript(bundle),
    "run.ts": RUN_TS,
    "tsconfig.json": TSCONFIG,
    "README.md": getReadme(bundle),
    ".env.example": getEnvExample(bundle),
  };
  for (const tool of bundle.moduleTools) {
    if (tool.file && tool.projectPath && !(tool.projectPath in files)) {
      files[tool.projectPath] = readFileSync(tool.file, "utf8");
    }
  }
  for (const [file, text] of Object.entries(runtime.files)) files[`vendor/${file}`] = text;
  return files;
}
