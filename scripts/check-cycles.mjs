// Fails on any import cycle inside a workspace, type imports included (STYLE.md: "a cycle check in lint",
// as langgraph's `dpdm --exit-code circular:1`), and, for the workspaces whose `src/` is split into folders
// by concept, on any cycle between those folders: each file is folded into its first-level folder under
// `src/` (a file at the root of `src/` is its own node), and the folder graph must have no cycle. Each
// workspace is read from its own `src/`; imports of another workspace are not followed, since that
// workspace is checked on its own.
//
// `node scripts/check-cycles.mjs [workspace…]` checks the named workspaces only (e.g. `server`).
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
/** Workspaces whose first-level folders under `src/` must import one way. */
const folderChecked = new Set(["packages/planner", "server", "designer"]);

const wanted = process.argv.slice(2);
const checked = wanted.length > 0 ? workspaces.filter((name) => wanted.includes(name)) : workspaces;
if (wanted.length > 0 && checked.length !== wanted.length) {
  console.error(`unknown workspace in ${wanted.join(", ")}: choose from ${workspaces.join(", ")}`);
  process.exit(2);
}

let failures = 0;
for (const workspace of checked) {
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
  if (folderChecked.has(workspace)) failures += reportFolderCycles(workspace, tree);
}
if (failures > 0) {
  console.error(
    `${failures} import cycle(s): move the shared types down to the file or folder that owns the data.`,
  );
  process.exit(1);
}
console.log(`import cycles: none, between files or folders (${checked.join(", ")})`);

/** The first-level folder under `<workspace>/src/` that holds a file, or undefined outside `src/`. */
function getFolder(workspace, file) {
  const prefix = `${workspace}/src/`;
  if (!file.startsWith(prefix)) return undefined;
  const rest = file.slice(prefix.length);
  const slash = rest.indexOf("/");
  return slash === -1 ? rest : `${rest.slice(0, slash)}/`;
}

/** Prints each folder-level cycle (a strongly connected set of folders) with the imports that make it. */
function reportFolderCycles(workspace, tree) {
  /** folder → folder → the file imports behind that edge */
  const edges = new Map();
  for (const [file, dependencies] of Object.entries(tree)) {
    if (file.endsWith(".test.ts") || file.endsWith(".test.tsx")) continue;
    const from = getFolder(workspace, file);
    if (from === undefined) continue;
    for (const dependency of dependencies ?? []) {
      const to = dependency.id ? getFolder(workspace, dependency.id) : undefined;
      if (to === undefined || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push(`${file} -> ${dependency.id}`);
    }
  }
  const components = getStronglyConnected(edges).filter((component) => component.length > 1);
  for (const component of components) {
    const members = new Set(component);
    console.error(`${workspace}: folder cycle between ${component.sort().join(", ")}`);
    for (const from of component) {
      for (const [to, imports] of edges.get(from) ?? []) {
        if (!members.has(to)) continue;
        console.error(`  ${from} -> ${to}: ${imports.length} import(s), e.g. ${imports[0]}`);
      }
    }
  }
  return components.length;
}

/** Tarjan's strongly connected components over `edges` (folder → Map of folder → imports). */
function getStronglyConnected(edges) {
  const nodes = new Set(edges.keys());
  for (const targets of edges.values()) for (const to of targets.keys()) nodes.add(to);
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return components;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
