import type { AgentSpecDiff, FieldChange } from "@waddle/protocol";

/** How one line of a diff reads: something added, removed, or changed from one value to another. */
export type DiffRowKind = "added" | "removed" | "changed";

/** One field that changed, its values as short text ("—" for absent). */
export interface DiffFieldRow {
  kind: DiffRowKind;
  path: string;
  from: string;
  to: string;
}

/** One line of a section: a tool, an edge, a group, or a field of the hints, planner or LLM. */
export interface DiffRow {
  kind: DiffRowKind;
  label: string;
  /** A tool's changed fields, field by field. */
  fields?: DiffFieldRow[];
}

export type DiffSectionKey = "tools" | "edges" | "groups" | "hints" | "planner" | "llm" | "other";

export interface DiffSection {
  key: DiffSectionKey;
  title: string;
  rows: DiffRow[];
}

export interface SpecDiffView {
  sections: DiffSection[];
  /** "2 tools changed · 1 edge added · LLM: 1 field", or "No changes (layout aside)". */
  summary: string;
}

const PREVIEW_CHARS = 140;

/** A JSON value as short text: strings quoted, absent as "—", long values cut. */
export function formatDiffValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

function getFieldRow(change: FieldChange): DiffFieldRow {
  const absent = (value: unknown) => value === null || value === undefined;
  const kind: DiffRowKind = absent(change.from) ? "added" : absent(change.to) ? "removed" : "changed";
  return {
    kind,
    path: change.path || "(whole value)",
    from: formatDiffValue(change.from),
    to: formatDiffValue(change.to),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `lookup → check (auto-seq)`. */
function getEdgeLabel(edge: unknown): string {
  if (!isRecord(edge) || typeof edge.source !== "string" || typeof edge.target !== "string")
    return formatDiffValue(edge);
  const kind = edge.kind === "auto_seq" ? "auto-seq" : typeof edge.kind === "string" ? edge.kind : "edge";
  return `${edge.source} → ${edge.target} (${kind})`;
}

/** `Parallel "fetch all": a, b, c`. */
function getGroupLabel(group: unknown): string {
  if (!isRecord(group)) return formatDiffValue(group);
  const name = typeof group.name === "string" && group.name ? group.name : String(group.id ?? "group");
  const members = Array.isArray(group.members) ? group.members.map(String).join(", ") : "";
  return `Parallel "${name}"${members ? `: ${members}` : ""}`;
}

const listRows = (items: { added: unknown[]; removed: unknown[] }, label: (item: unknown) => string) => [
  ...items.removed.map((item): DiffRow => ({ kind: "removed", label: label(item) })),
  ...items.added.map((item): DiffRow => ({ kind: "added", label: label(item) })),
];

const fieldRows = (changes: readonly FieldChange[]): DiffRow[] =>
  changes.map((change) => {
    const row = getFieldRow(change);
    return { kind: row.kind, label: row.path, fields: [row] };
  });

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * A structural diff (`GET /api/agents/:id/diff`) as sections a person reads top to bottom: tools (removed,
 * added, changed with each field's before and after), edges, parallel groups, hints, planner, LLM and the
 * rest. Empty sections are left out.
 */
export function getSpecDiffView(diff: AgentSpecDiff): SpecDiffView {
  const { tools } = diff;
  const sections: DiffSection[] = [
    {
      key: "tools",
      title: "Tools",
      rows: [
        ...tools.removed.map((name): DiffRow => ({ kind: "removed", label: name })),
        ...tools.added.map((name): DiffRow => ({ kind: "added", label: name })),
        ...tools.changed.map((tool): DiffRow => ({
          kind: "changed",
          label: tool.name,
          fields: tool.changes.map(getFieldRow),
        })),
      ],
    },
    { key: "edges", title: "Edges", rows: listRows(diff.edges, getEdgeLabel) },
    { key: "groups", title: "Parallel groups", rows: listRows(diff.groups, getGroupLabel) },
    { key: "hints", title: "Planning hints", rows: fieldRows(diff.hints) },
    { key: "planner", title: "Planner settings", rows: fieldRows(diff.planner) },
    { key: "llm", title: "LLM", rows: fieldRows(diff.llm) },
    { key: "other", title: "Name, description and sample queries", rows: fieldRows(diff.other) },
  ];
  const shown = sections.filter((section) => section.rows.length > 0);
  return { sections: shown, summary: getDiffSummary(diff) };
}

function getDiffSummary(diff: AgentSpecDiff): string {
  const parts: string[] = [];
  const { tools, edges, groups } = diff;
  const toolParts = [
    tools.added.length ? `${tools.added.length} added` : "",
    tools.removed.length ? `${tools.removed.length} removed` : "",
    tools.changed.length ? `${tools.changed.length} changed` : "",
  ].filter(Boolean);
  if (toolParts.length) parts.push(`Tools: ${toolParts.join(", ")}`);
  const edgeCount = edges.added.length + edges.removed.length;
  if (edgeCount) parts.push(plural(edgeCount, "edge change"));
  const groupCount = groups.added.length + groups.removed.length;
  if (groupCount) parts.push(plural(groupCount, "group change"));
  const fields: [string, readonly FieldChange[]][] = [
    ["hints", diff.hints],
    ["planner", diff.planner],
    ["LLM", diff.llm],
    ["name and description", diff.other],
  ];
  for (const [name, changes] of fields)
    if (changes.length) parts.push(`${name}: ${plural(changes.length, "field")}`);
  return parts.length ? parts.join(" · ") : "No changes (layout aside)";
}
