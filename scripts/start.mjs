// `npm start`: builds what is missing or stale (TypeScript packages, the runtime a ts-project export ships,
// the designer), then serves Waddle.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
const newestMtime = (target) => {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, entry) => {
    if (entry === "node_modules" || entry === "dist") return newest;
    return Math.max(newest, newestMtime(path.join(target, entry)));
  }, stat.mtimeMs);
};

// tsc -b only rebuilds what changed; it is quick when everything is up to date, and silent either way.
const firstBuild = !existsSync(path.join(root, "server/dist/main.js"));
console.log(
  firstBuild
    ? "Waddle: building the TypeScript packages (the first time takes about a minute)…"
    : "Waddle: checking the build…",
);
const started = Date.now();
run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"]);
console.log(`Waddle: packages ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

// The bundles a ts-project export ships (scripts/build-export-runtime.mjs): without them that download fails.
const exportRuntime = path.join(root, "server/dist/export-runtime/manifest.json");
const runtimeSources = ["packages/protocol/src", "packages/planner/src", "server/src", "server/package.json"];
const runtimeMtime = Math.max(...runtimeSources.map((entry) => newestMtime(path.join(root, entry))));
if (!existsSync(exportRuntime) || statSync(exportRuntime).mtimeMs < runtimeMtime) {
  console.log("Waddle: building the runtime a TS project export ships…");
  run(process.execPath, [path.join(root, "scripts/build-export-runtime.mjs")]);
}

const designerBuilt = path.join(root, "designer/dist/index.html");
const designerSources = [
  "designer/src",
  "designer/index.html",
  "designer/vite.config.ts",
  "packages/protocol/src",
];
const sourcesMtime = Math.max(...designerSources.map((entry) => newestMtime(path.join(root, entry))));
if (!existsSync(designerBuilt) || statSync(designerBuilt).mtimeMs < sourcesMtime) {
  console.log("Waddle: building the designer…");
  run("npm", ["run", "build", "-w", "@waddle/designer"]);
}

const server = spawn(process.execPath, [path.join(root, "server/dist/main.js")], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
