import type { RunEvent } from "@waddle/protocol";

/** One scrubber jump: where to, and the tool node that shows `running` there (and nowhere near before). */
export interface ReplayJump {
  position: number;
  tool: string;
}

/** Far apart, back and forth across the run. */
export const JUMP_FRACTIONS: readonly number[] = [0.05, 0.95, 0.25, 0.75, 0.5, 0.1, 0.9, 0.35, 0.65, 0.02];

/**
 * Scrubber positions near `fractions` of the run (position = events applied) chosen so that the canvas
 * must change: each is just after a tool's first `tool_start` of a sequential step, for a tool in
 * `tools` (those on screen), so that node shows `running` there; two jumps in a row never pick the same
 * tool, so the node's state changes on every jump (from the end of the run, no node is running).
 */
export function planReplayJumps(input: {
  events: readonly RunEvent[];
  tools: readonly string[];
  fractions?: readonly number[];
}): ReplayJump[] {
  const shown = new Set(input.tools);
  const starts: ReplayJump[] = [];
  input.events.forEach((event, index) => {
    if (event.type !== "tool_start" || event.data.parallelId !== undefined || event.data.attempt !== 1)
      return;
    if (shown.has(event.data.tool)) starts.push({ position: index + 1, tool: event.data.tool });
  });
  const jumps: ReplayJump[] = [];
  for (const fraction of input.fractions ?? JUMP_FRACTIONS) {
    const target = fraction * input.events.length;
    const previous = jumps.at(-1)?.tool;
    let best: ReplayJump | undefined;
    for (const start of starts) {
      if (start.tool === previous) continue;
      if (best === undefined || Math.abs(start.position - target) < Math.abs(best.position - target))
        best = start;
    }
    if (best !== undefined) jumps.push(best);
  }
  return jumps;
}
