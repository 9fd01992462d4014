// Builds the runtime that a `format=ts-project` export ships inside its zip, so that the project installs
// and runs on a machine without this repository: @waddle/* are not published. Three vendored packages,
// each one bundled ESM file plus its declaration files, with every other @waddle/* and npm import left
// external; manifest.json lists the files and the exact versions of the npm packages the bundles import.
// Run by `npm run build` (after `tsc -b`, whose .d.ts files it copies); tests that export a ts-project run
// it through server/src/testing/ensure-export-runtime.ts, `npm start` when it is missing or stale, and the
// server on the first ts-project export that finds none. Output: server/dist/export-runtime/, or the folder
// given as `--out DIR`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({ options: { out: { type: "string" } } });
const outDir = path.resolve(args.out ?? path.join(root, "server/dist/export-runtime"));

/** The packages vendored into an export: where their source and .d.ts are, and what they export. */
const PACKAGES = [
  {
    name: "@waddle/protocol",
    folder: "waddle-protocol",
    dir: "packages/protocol",
    entries: [{ subpath: ".", source: "src/index.ts", types: "index.d.ts", file: "index.js" }],
  },
  {
    name: "@waddle/planner",
    folder: "waddle-planner",
    dir: "packages/planner",
    entries: [{ subpath: ".", source: "src/index.ts", types: "index.d.ts", file: "index.js" }],
  },
  {
    name: "@waddle/server",
    folder: "waddle-server",
    dir: "server",
    entries: [
      {
        subpath: "./runtime",
        source: "src/runtime/index.ts",
        types: "runtime/index.d.ts",
        file: "runtime.js",
      },
    ],
  },
];

/** `@scope/name/sub/path.js` → `@scope/name`; `tsx/esm/api` → `tsx`. */
function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The installed version of `name` as seen from `fromDir` (walks up the node_modules folders). */
function installedVersion(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
    if (dir === path.dirname(dir)) throw new Error(`${name} is not installed (looked from ${fromDir}).`);
  }
}

/** The .d.ts files `entry` reaches through relative imports, as paths relative to `distDir`. */
function declarationClosure(distDir, entry) {
  const seen = new Set();
  const visit = (relative) => {
    if (seen.has(relative)) return;
    seen.add(relative);
    const text = readFileSync(path.join(distDir, relative), "utf8");
    for (const match of text.matchAll(/(?:from\s+|import\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = path.join(path.dirname(relative), match[1].replace(/\.js$/, ".d.ts"));
      visit(target);
    }
  };
  visit(entry);
  return [...seen].sort();
}

// One build at a time (test files that export a ts-project may start it together): a lock file, taken over
// when its holder is gone.
const lock = path.join(root, "server/dist/.export-runtime.lock");
mkdirSync(path.dirname(lock), { recursive: true });
for (;;) {
  try {
    writeFileSync(lock, String(process.pid), { flag: "wx" });
    break;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    const holder = Number(readFileSync(lock, "utf8"));
    let alive = Number.isInteger(holder) && holder > 0;
    try {
      if (alive) process.kill(holder, 0);
    } catch {
      alive = false;
    }
    if (!alive) rmSync(lock, { force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
process.on("exit", () => rmSync(lock, { force: true }));

// The .d.ts files come from tsc's build (a no-op when `npm run build` just ran it).
execFileSync(
  process.execPath,
  [path.join(root, "node_modules/typescript/bin/tsc"), "-b", "server/tsconfig.build.json"],
  {
    cwd: root,
    stdio: "inherit",
  },
);

const version = JSON.parse(readFileSync(path.join(root, "server/package.json"), "utf8")).version;
const work = `${outDir}.tmp-${process.pid}`;
rmSync(work, { recursive: true, force: true });
const dependencies = {};
const files = [];

for (const pkg of PACKAGES) {
  const pkgDir = path.join(root, pkg.dir);
  const target = path.join(work, pkg.folder);
  const exportsField = {};
  for (const entry of pkg.entries) {
    const result = await build({
      entryPoints: [path.join(pkgDir, entry.source)],
      outfile: path.join(target, entry.file),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      metafile: true,
      legalComments: "inline",
      logLevel: "warning",
      banner: {
        js: `// ${pkg.name}${entry.subpath === "." ? "" : entry.subpath} ${version}, bundled for an exported Waddle project.`,
      },
    });
    for (const output of Object.values(result.metafile.outputs)) {
      for (const imported of output.imports) {
        if (!imported.external || imported.path.startsWith("node:")) continue;
        const name = packageNameOf(imported.path);
        if (name.startsWith("@waddle/")) {
          if (!PACKAGES.some((other) => other.name === name)) throw new Error(`${pkg.name} imports ${name}.`);
          continue;
        }
        dependencies[name] = installedVersion(name, pkgDir);
      }
    }
    const distDir = path.join(pkgDir, "dist");
    for (const relative of declarationClosure(distDir, entry.types)) {
      const text = readFileSync(path.join(distDir, relative), "utf8").replace(
        /\n\/\/# sourceMappingURL=.*\n?$/,
        "\n",
      );
      mkdirSync(path.dirname(path.join(target, "types", relative)), { recursive: true });
      writeFileSync(path.join(target, "types", relative), text);
    }
    exportsField[entry.subpath] = { types: `./types/${entry.types}`, default: `./${entry.file}` };
  }
  const manifest = {
    name: pkg.name,
    version,
    description: `${pkg.name}, bundled into this project by the Waddle export; its imports are the project's dependencies.`,
    type: "module",
    license: "MIT",
    exports: exportsField,
  };
  writeFileSync(path.join(target, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

function listFiles(dir, prefix = "") {
  return execFileSync("find", [".", "-type", "f"], { cwd: dir, encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((file) => path.posix.join(prefix, file.replace(/^\.\//, "")));
}
files.push(...listFiles(work).sort());
writeFileSync(
  path.join(work, "manifest.json"),
  `${JSON.stringify(
    {
      version,
      packages: Object.fromEntries(PACKAGES.map((pkg) => [pkg.name, pkg.folder])),
      dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : 1))),
      files,
    },
    null,
    2,
  )}\n`,
);

// Swap in the new build whole, so that a reader (or a second build) never sees half of one.
const old = `${outDir}.old-${process.pid}`;
if (existsSync(outDir)) renameSync(outDir, old);
try {
  renameSync(work, outDir);
} catch (error) {
  // Another build finished first: keep its output.
  if (!existsSync(path.join(outDir, "manifest.json"))) throw error;
  rmSync(work, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
console.log(`export runtime: ${files.length} files in ${path.relative(root, outDir)}`);
