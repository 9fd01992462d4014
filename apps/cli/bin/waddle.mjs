#!/usr/bin/env node
// `waddle` (`npx waddle …` from the repository): runs from the TypeScript sources through tsx when they are
// present, so that no build is needed, else from dist/.
import { existsSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, "../src/index.ts");
let cli;
if (existsSync(source)) {
  // Workspace packages resolve to their sources (the "source" export condition), then tsx compiles them.
  register("./source-condition.mjs", import.meta.url);
  const { register: registerTsx } = await import("tsx/esm/api");
  registerTsx();
  cli = await import(pathToFileURL(source).href);
} else {
  cli = await import("../dist/index.js");
}
const code = await cli.runCli(process.argv.slice(2), cli.getProcessIo());
process.exit(code);
