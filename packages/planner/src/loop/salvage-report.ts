import type { SalvageNote } from "../actions/salvage-rules.js";
import type { RunContext } from "./run-context.js";

/** Rules that only say the reply used the legacy shape: expected, not salvaged, under `actionFormat: "legacy"`. */
const LEGACY_RULES = new Set(["legacy", "legacy_terminal", "legacy_plan"]);

/**
 * One `action_salvaged` per rule the reply needed (docs/normalization.md), tied to the action it became by
 * `action_seq`. A clean reply has no notes and costs nothing here.
 */
export function reportSalvages(
  run: Pick<RunContext, "config" | "events">,
  notes: readonly SalvageNote[] | undefined,
  at: { node?: string; actionSeq: number },
): void {
  if (notes === undefined || notes.length === 0) return;
  const legacy = run.config.options.actionFormat === "legacy";
  const seen = new Set<string>();
  for (const note of notes) {
    if (seen.has(note.rule) || (legacy && LEGACY_RULES.has(note.rule))) continue;
    seen.add(note.rule);
    run.events.emit("action_salvaged", {
      ...note,
      ...(at.node === undefined ? {} : { node: at.node }),
      action_seq: at.actionSeq,
    });
  }
}
