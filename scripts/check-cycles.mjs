// Fails on any import cycle inside a workspace, type imports included (STYLE.md: "a cycle check in lint",
// as langgraph's `dpdm --exit-code circular:1`). Each workspace is read from its own `src/`; imports of
// another workspace are not followed, since that workspace is checked on its own.
import { parseCircular, parseDependencyTree } from "dpdm";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const workspaces = [
  "packages/protocol",
  "packages/planner",
  "server",
  "designer",
  "apps/cli",
  "apps/examples",
];

let failures = 0;
for (const workspace of workspaces) {
  const dir = path.join(root, workspace);
  const tree = await parseDependencyTree(["src/**/*.ts", "src/**/*.tsx", "tools/**/*.ts"], {
    cwd: dir,
    context: root,
    transform: false,
    skipDynamicImports: false,
    // Files of this workspace only: node_modules, builds and other workspaces are leaves.
    exclude: new RegExp(`node_modules|/dist/|^(?!${escapeRegExp(dir)}/)`),
    tsconfig: path.join(dir, "tsconfig.json"),
  });
  const circles = parseCircular(tree);
  for (const circle of circles) {
    console.error(`${workspace}: import cycle ${[...circle, circle[0]].join(" -> ")}`);
  }
  failures += circles.length;
}
if (failures > 0) {
  console.error(`${failures} import cycle(s): move the shared types down to the file that owns the data.`);
  process.exit(1);
}
console.log(`import cycles: none (${workspaces.join(", ")})`);

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
