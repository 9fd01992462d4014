// Finds relative links in the Markdown docs that lead nowhere: a missing file or folder, or a `#anchor`
// that no heading of the target file makes (GitHub's slug rules). Run: npx tsx scripts/doc-links/check-doc-links.ts
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface DocLink {
  target: string;
  /** 1-based line of the link in its file. */
  line: number;
}

export interface BrokenLink extends DocLink {
  /** The file the link is in, relative to the repository root. */
  file: string;
  reason: string;
}

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Folders that hold no docs of ours: dependencies, builds, data and test output. */
const SKIPPED = new Set([
  ".git",
  "node_modules",
  "dist",
  "data",
  "coverage",
  "test-results",
  "playwright-report",
]);

/**
 * The docs whose links are checked: every Markdown file of the repository (the README, CONTRIBUTING.md,
 * docs/, the packages' docs folders and folder READMEs), as paths relative to `root`, sorted.
 */
export function listDocFiles(root: string = ROOT, folder = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory() && !SKIPPED.has(entry.name) && relative !== "test/e2e/artifacts")
      files.push(...listDocFiles(root, relative));
    else if (entry.isFile() && entry.name.endsWith(".md")) files.push(relative);
  }
  return files.sort();
}

/** The Markdown's lines with fenced code blocks blanked, so that nothing inside them counts. */
function blankCodeBlocks(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) {
      fence = opening;
      return "";
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, "") === "")
        fence = undefined;
      return "";
    }
    return line;
  });
}

const withoutCodeSpans = (line: string) =>
  line.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => " ".repeat(span.length));

const INLINE_LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const HTML_ATTRIBUTE = /<(?:a|img)\b[^>]*?\s(?:href|src)=["']([^"']+)["']/gi;

/** Every link target in the Markdown (inline links, images, reference definitions, `<a href>`, `<img src>`). */
export function extractLinks(markdown: string): DocLink[] {
  const links: DocLink[] = [];
  blankCodeBlocks(markdown).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    const add = (target: string) => links.push({ target: target.replace(/^<|>$/g, ""), line: index + 1 });
    for (const match of line.matchAll(INLINE_LINK)) add(match[1]!);
    for (const match of line.matchAll(HTML_ATTRIBUTE)) add(match[1]!);
    const definition = REFERENCE_DEFINITION.exec(line);
    if (definition) add(definition[1]!);
  });
  return links;
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces as hyphens. */
export function getGithubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images keep their text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors a Markdown file offers: its headings' slugs (repeats get -1, -2, …) and explicit ids. */
export function getAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const addHeading = (text: string) => {
    const slug = getGithubSlug(text);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  };
  const lines = blankCodeBlocks(markdown);
  lines.forEach((line, index) => {
    const atx = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) addHeading(atx[1]!);
    const previous = lines[index - 1]?.trim() ?? "";
    if (/^\s{0,3}(=+|-+)\s*$/.test(line) && previous !== "" && !/^([-*+|>#]|\d+\.)/.test(previous))
      addHeading(previous);
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)=["']([^"']+)["']/gi)) anchors.add(match[1]!);
  });
  return anchors;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** The broken relative links of `files` (paths relative to `root`). */
export function findBrokenLinks(files: readonly string[], root: string = ROOT): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let anchors = anchorCache.get(file);
    if (!anchors) anchorCache.set(file, (anchors = getAnchors(readFileSync(file, "utf8"))));
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const full = path.join(root, file);
    for (const link of extractLinks(readFileSync(full, "utf8"))) {
      if (EXTERNAL.test(link.target)) continue;
      const [rawPath = "", anchor] = link.target.split("#", 2);
      const targetPath = decodeURIComponent(rawPath);
      const resolved = targetPath === "" ? full : path.resolve(path.dirname(full), targetPath);
      const report = (reason: string) => broken.push({ ...link, file, reason });
      if (targetPath.startsWith("/")) report("absolute path: link relative to this file instead");
      else if (!existsSync(resolved)) report(`no such file: ${path.relative(root, resolved)}`);
      else if (anchor && resolved.endsWith(".md") && statSync(resolved).isFile()) {
        if (!anchorsOf(resolved).has(decodeURIComponent(anchor)))
          report(`no heading makes #${anchor} in ${path.relative(root, resolved)}`);
      }
    }
  }
  return broken;
}

/** One line per broken link: `file:line: target (reason)`. */
export function formatBrokenLinks(broken: readonly BrokenLink[]): string {
  return broken.map((link) => `${link.file}:${link.line}: ${link.target} (${link.reason})`).join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const broken = findBrokenLinks(listDocFiles());
  if (broken.length > 0) {
    process.stderr.write(`${formatBrokenLinks(broken)}\n`);
    process.exit(1);
  }
  process.stdout.write(`doc links: ok (${listDocFiles().length} files)\n`);
}
