import {
  AgentSpec,
  Edge,
  Layout,
  ParallelGroup,
  parseJson,
  protoSafeReviver,
  ToolSpec,
} from "@waddle/protocol";
import { z } from "zod";
import type { ClipboardSlice } from "./clipboard-slice.js";
import { getFallbackPosition } from "../model/layout-geometry.js";

/**
 * Copied canvas elements as JSON text: a lone tool is its tool JSON (what the inspector and the spec
 * hold), anything more is `{tools, edges, groups, layout}`, a piece of an agent spec. Both paste back.
 */
export function getClipboardJson(slice: ClipboardSlice): string {
  const [only] = slice.tools;
  if (only && slice.tools.length === 1 && slice.groups.length === 0) return JSON.stringify(only, null, 2);
  const { tools, edges, groups, positions } = slice;
  return JSON.stringify({ tools, edges, groups, layout: { nodes: positions } }, null, 2);
}

/** What pasted text holds: tools (with edges, groups and their layout) and where they came from. */
export type PastedJson =
  | { ok: true; source: "tool" | "tools" | "agent"; agentName?: string; slice: ClipboardSlice }
  | { ok: false; message: string };

const AgentPiece = z.strictObject({
  tools: z.array(ToolSpec).min(1).max(500),
  edges: z.array(Edge).max(5_000).default([]),
  groups: z.array(ParallelGroup).max(500).default([]),
  layout: Layout.optional(),
});

const HELP = "Paste a tool's JSON (an object with a name and an impl), a list of tools, or an agent's JSON.";

/** Zod issues in plain words: where (`tools[0].impl.kind`) and what is wrong, at most three. */
export function getIssueText(error: z.ZodError): string {
  const lines = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path
      .map((part, index) =>
        typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`,
      )
      .join("");
    const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
    const what = missing
      ? "is missing"
      : issue.code === "unrecognized_keys"
        ? `has a field a tool does not have (${issue.keys.join(", ")})`
        : issue.message.replace(/^Invalid input: /, "").replace(/^Too big: /, "too long: ");
    return where === "" ? what : `${where} ${what}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : "";
  return `${lines.join("; ")}${more}`;
}

function placeInGrid(tools: readonly ToolSpec[], layout: Layout | undefined): ClipboardSlice["positions"] {
  const positions: ClipboardSlice["positions"] = { ...(layout?.nodes ?? {}) };
  tools.forEach((tool, index) => {
    positions[tool.name] ??= getFallbackPosition(index);
  });
  return positions;
}

/** The tools, edges and groups of a spec or spec piece; edges and groups keep only the tools pasted along. */
function getSlice(piece: { tools: ToolSpec[]; edges: Edge[]; groups: ParallelGroup[]; layout?: Layout }) {
  const names = new Set(piece.tools.map((tool) => tool.name));
  const groups = piece.groups.map((group) => ({
    ...group,
    members: group.members.filter((name) => names.has(name)),
  }));
  return {
    tools: piece.tools,
    edges: piece.edges.filter((edge) => names.has(edge.source) && names.has(edge.target)),
    groups: groups.map((group) =>
      group.join && !names.has(group.join.tool) ? { ...group, join: undefined } : group,
    ),
    positions: placeInGrid(piece.tools, piece.layout),
  };
}

/**
 * Reads text pasted onto the canvas (a boundary: it can be anything): a tool, a list of tools, a piece of
 * a spec or a whole agent spec, each checked with the protocol's schema. Refusals say what is wrong.
 */
export function parsePastedJson(text: string): PastedJson {
  if (text.trim() === "") return { ok: false, message: `The clipboard is empty. ${HELP}` };
  const parsed = parseJson(text, { reviver: protoSafeReviver });
  if (!parsed.ok)
    return { ok: false, message: `The clipboard does not hold JSON (${parsed.error}). ${HELP}` };
  const value = parsed.value;
  if (Array.isArray(value)) {
    const tools = z.array(ToolSpec).min(1).max(500).safeParse(value);
    if (!tools.success) return { ok: false, message: `Not a list of tools: ${getIssueText(tools.error)}.` };
    return { ok: true, source: "tools", slice: getSlice({ tools: tools.data, edges: [], groups: [] }) };
  }
  if (typeof value !== "object" || value === null)
    return {
      ok: false,
      message: `The clipboard holds ${value === null ? "null" : `a ${typeof value}`}. ${HELP}`,
    };
  if ("version" in value || "id" in value) {
    const spec = AgentSpec.safeParse(value);
    if (!spec.success) return { ok: false, message: `Not a valid agent: ${getIssueText(spec.error)}.` };
    return { ok: true, source: "agent", agentName: spec.data.name, slice: getSlice(spec.data) };
  }
  if ("tools" in value) {
    const piece = AgentPiece.safeParse(value);
    if (!piece.success) return { ok: false, message: `Not valid tools: ${getIssueText(piece.error)}.` };
    return { ok: true, source: "tools", slice: getSlice(piece.data) };
  }
  const tool = ToolSpec.safeParse(value);
  if (!tool.success) return { ok: false, message: `Not a valid tool: ${getIssueText(tool.error)}.` };
  return { ok: true, source: "tool", slice: getSlice({ tools: [tool.data], edges: [], groups: [] }) };
}
