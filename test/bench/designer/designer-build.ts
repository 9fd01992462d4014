import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DIST = path.join(ROOT, "designer/dist");
/** What the designer bundle is built from (it bundles @waddle/protocol from its sources). */
const INPUTS = [
  "designer/src",
  "designer/index.html",
  "designer/vite.config.ts",
  // the hosted chat page and embed.js, built into the same dist (the public benchmark serves them)
  "designer/chat.html",
  "designer/vite.chat.config.ts",
  "designer/vite.embed.config.ts",
  "designer/package.json",
  "packages/protocol/src",
];

function newestMtime(target: string): number {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat === undefined) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when designer/dist is missing or older than a file it is built from. */
export function isDesignerBuildStale(): boolean {
  const built = statSync(path.join(DIST, "index.html"), { throwIfNoEntry: false });
  if (built === undefined) return true;
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built.mtimeMs);
}

/**
 * Builds the designer when designer/dist is stale (`npm run build -w @waddle/designer`, as `npm run build`
 * does), then copies the build to a temporary folder that the benchmark's server serves: a rebuild by
 * someone else mid-benchmark (the working tree is shared) cannot swap the bundle under a page load.
 * Returns that folder and what was measured.
 */
export function snapshotDesignerBuild(log: (message: string) => void): { dir: string; description: string } {
  if (isDesignerBuildStale()) {
    log("designer/dist is older than its sources: npm run build -w @waddle/designer");
    execFileSync("npm", ["run", "build", "-w", "@waddle/designer"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  if (!existsSync(path.join(DIST, "index.html")))
    throw new Error("designer/dist/index.html is missing after the build.");
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-designer-dist-"));
  cpSync(DIST, dir, { recursive: true });
  return {
    dir,
    description: `the designer's production build (vite build → designer/dist), ${describeRevision()}`,
  };
}

function describeRevision(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--", "designer/src", "packages/protocol/src").length > 0;
    return `from commit ${git("rev-parse", "--short", "HEAD")}${dirty ? " plus uncommitted changes in designer/src or packages/protocol/src" : ""}`;
  } catch {
    return "from an unknown commit";
  }
}
