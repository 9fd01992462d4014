// Checks that workspace dependencies point one way: protocol ← planner ← server, protocol ← designer;
// examples (agent specs and tools, over planner) ← server and cli.
// ESLint forbids the imports; this forbids the package.json dependencies that would allow them.
import { readFileSync } from "node:fs";

const allowed = {
  "packages/protocol": [],
  "packages/planner": ["@waddle/protocol"],
  server: ["@waddle/protocol", "@waddle/planner", "@waddle/examples"],
  designer: ["@waddle/protocol"],
  "apps/examples": ["@waddle/protocol", "@waddle/planner"],
  "apps/cli": ["@waddle/protocol", "@waddle/planner", "@waddle/server", "@waddle/examples"],
};

let failures = 0;
for (const [dir, permitted] of Object.entries(allowed)) {
  const manifest = JSON.parse(readFileSync(new URL(`../${dir}/package.json`, import.meta.url), "utf8"));
  const deps = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
  for (const name of Object.keys(deps)) {
    if (name.startsWith("@waddle/") && !permitted.includes(name)) {
      console.error(
        `${dir}/package.json depends on ${name}: dependencies point one way (see STYLE.md rule 1).`,
      );
      failures += 1;
    }
  }
}
if (failures > 0) process.exit(1);
console.log("workspace boundaries: ok");
