// Finds the documentation paths that user-visible strings of the sources name (error messages, hints,
// labels), and which of them lead nowhere or at a repository path instead of the docs tree (docs/…).
// Comments are not read: they may name a package's own design notes.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { getAnchors } from "./check-doc-links.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Where strings that reach people live: the server's answers, the designer's page, the CLI's output. */
export const SOURCE_FOLDERS = [
  "server/src",
  "designer/src",
  "apps/cli/src",
  "packages/planner/src",
  "packages/protocol/src",
];

/** A path under a `docs/` folder (`docs/guides/access.md#roles`, `server/docs/access.md`). */
const DOCS_PATH = /(?:[\w.-]+\/)*docs\/[\w./-]*[\w-](?:#[\w-]+)?/g;
/** A README inside the repository (`server/README.md`); a bare `README.md` is an exported project's. */
const REPO_README = /(?:[\w.-]+\/)+README\.md(?:#[\w-]+)?/g;

export interface SourceDocPath {
  /** The source file, relative to the repository root. */
  file: string;
  line: number;
  /** As written, `#anchor` included. */
  path: string;
}

export interface BadSourceDocPath extends SourceDocPath {
  reason: string;
}

function listSources(folder: string, root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "testing" && entry.name !== "node_modules")
        found.push(...listSources(relative, root));
    } else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith(".d.ts")
    )
      found.push(relative);
  }
  return found;
}

/** The text of every string, template part and JSX text of a source file, with its line. */
function getStrings(file: string, text: string): { text: string; line: number }[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const strings: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      strings.push({ text: node.text, line });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return strings;
}

/** Every docs path and repository README that a string of the sources names. */
export function findSourceDocPaths(root: string = ROOT, folders = SOURCE_FOLDERS): SourceDocPath[] {
  const found: SourceDocPath[] = [];
  for (const file of folders.flatMap((folder) => listSources(folder, root))) {
    const text = readFileSync(path.join(root, file), "utf8");
    if (!text.includes("docs/") && !text.includes("README")) continue;
    for (const string of getStrings(file, text)) {
      for (const pattern of [DOCS_PATH, REPO_README]) {
        for (const match of string.text.matchAll(pattern))
          found.push({ file, line: string.line, path: match[0] });
      }
    }
  }
  return found;
}

/** Why a path a person reads is no help: outside the docs tree, a missing file, or a missing anchor. */
export function checkSourceDocPath(docPath: string, root: string = ROOT): string | undefined {
  const [target = "", anchor] = docPath.split("#", 2);
  if (!target.startsWith("docs/"))
    return "is a repository path: point at the page of the docs tree (docs/…) that covers it";
  const file = path.join(root, target);
  if (!existsSync(file)) return "does not exist";
  if (anchor !== undefined && target.endsWith(".md") && !getAnchors(readFileSync(file, "utf8")).has(anchor))
    return `has no heading #${anchor}`;
  return undefined;
}

export function findBadSourceDocPaths(root: string = ROOT): BadSourceDocPath[] {
  return findSourceDocPaths(root).flatMap((found) => {
    const reason = checkSourceDocPath(found.path, root);
    return reason === undefined ? [] : [{ ...found, reason }];
  });
}
