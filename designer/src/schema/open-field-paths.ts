import type { FieldPath } from "./schema-field-edits.js";

/**
 * Which field rows of a schema editor have their details open, keyed by path. Rows are keyed by index (a
 * name key would remount the row, and lose focus, on every keystroke of a rename), so the open state has
 * to follow a field when it moves or when a sibling before it is removed.
 */
export type OpenFieldPaths = ReadonlySet<string>;

/** The key of a field path in an `OpenFieldPaths` set. */
export function getPathKey(path: FieldPath): string {
  return path.join("/");
}

function parseKey(key: string): (number | "items")[] {
  return key.split("/").map((step) => (step === "items" ? "items" : Number(step)));
}

/** Rewrites every open path at or under `path`'s parent level through `map` (null drops the path). */
function remapSiblings(
  open: OpenFieldPaths,
  path: FieldPath,
  map: (index: number) => number | null,
): OpenFieldPaths {
  const depth = path.length - 1;
  const parentKey = getPathKey(path.slice(0, depth));
  const next = new Set<string>();
  for (const key of open) {
    const steps = parseKey(key);
    const index = steps[depth];
    const sameParent = getPathKey(steps.slice(0, depth)) === parentKey;
    if (!sameParent || typeof index !== "number") {
      next.add(key);
      continue;
    }
    const mapped = map(index);
    if (mapped !== null) next.add(getPathKey([...steps.slice(0, depth), mapped, ...steps.slice(depth + 1)]));
  }
  return next;
}

/** The open paths after the field at `path` swapped places with its neighbour `delta` away. */
export function moveOpenPath(options: {
  open: OpenFieldPaths;
  path: FieldPath;
  delta: -1 | 1;
  siblingCount: number;
}): OpenFieldPaths {
  const { open, path, delta, siblingCount } = options;
  const index = path[path.length - 1];
  if (typeof index !== "number") return open;
  const target = index + delta;
  if (target < 0 || target >= siblingCount) return open;
  return remapSiblings(open, path, (i) => (i === index ? target : i === target ? index : i));
}

/** The open paths after the field at `path` was removed: its own go, later siblings' shift up. */
export function removeOpenPath(open: OpenFieldPaths, path: FieldPath): OpenFieldPaths {
  const index = path[path.length - 1];
  if (typeof index !== "number") return open;
  return remapSiblings(open, path, (i) => (i === index ? null : i > index ? i - 1 : i));
}

/** Opens or closes one row's details. */
export function toggleOpenPath(open: OpenFieldPaths, path: FieldPath): OpenFieldPaths {
  const key = getPathKey(path);
  const next = new Set(open);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}
