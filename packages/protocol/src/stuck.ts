// The stuck-run breaker (issue 35): its options in `planner.stuck` and its `stuck_detected` event.
import { z } from "zod";
import { createRunEventEnvelope } from "./run-event-envelope.js";

/**
 * What the planner does when a run repeats itself: `nudge` tells the model once (a second time finishes
 * the run), `pause` asks a person (reason `stuck`), `finish` ends the run with the best answer so far.
 */
export const StuckAction = z.enum(["nudge", "pause", "finish"]);
export type StuckAction = z.infer<typeof StuckAction>;

/**
 * `repeat`: one tool with the same args; `alternate`: two calls taking turns (A, B, A, B); `error`: one
 * tool failing with the same error; `empty`: tool results in a row with nothing in them.
 */
export const StuckPattern = z.enum(["repeat", "alternate", "error", "empty"]);
export type StuckPattern = z.infer<typeof StuckPattern>;

export const STUCK_DEFAULTS = { enabled: true, repeats: 3, action: "nudge" } as const;

/** `planner.stuck`: on by default; `repeats` is how many times a pattern must occur before it counts. */
export const StuckOptions = z.strictObject({
  enabled: z.boolean().default(STUCK_DEFAULTS.enabled),
  repeats: z.int().min(2).max(100).default(STUCK_DEFAULTS.repeats),
  action: StuckAction.default(STUCK_DEFAULTS.action),
});
export type StuckOptions = z.infer<typeof StuckOptions>;
export type StuckOptionsInput = z.input<typeof StuckOptions>;

/**
 * The planner found a run repeating itself. `tools`: the tools involved; `count`: how many times the
 * pattern occurred (calls, failures, empty results; for `alternate`, full A-B cycles); `action`: what the
 * planner did (a `nudge` that did not help is followed by a second event with `finish`).
 */
export const StuckDetectedEvent = createRunEventEnvelope(
  "stuck_detected",
  z.looseObject({
    pattern: StuckPattern,
    tools: z.array(z.string()).min(1),
    count: z.int().positive(),
    action: StuckAction,
    /** A sentence saying what repeated, for timelines and the model's nudge. */
    message: z.string().optional(),
  }),
);
