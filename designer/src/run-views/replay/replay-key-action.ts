/** What a key does in a replay: space plays or pauses, ←/→ step, Home/End jump, +/- change speed. */
export type ReplayKeyAction = "toggle" | "back" | "forward" | "start" | "end" | "faster" | "slower";

/** The parts of a keyboard event that decide (so the mapping is testable without a DOM). */
export interface ReplayKeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The focused element's tag name (`INPUT`, `BUTTON`, …) and whether it is editable text. */
  targetTag?: string;
  targetEditable?: boolean;
}

const TYPING_TAGS = new Set(["INPUT", "TEXTAREA", "SELECT"]);
const CLICKABLE_TAGS = new Set(["BUTTON", "A", "SUMMARY"]);

/**
 * The replay action for a key press, or null to leave the key alone: never while typing or in a form
 * control (the scrubber handles its own arrows), nor with a modifier (those are editor shortcuts).
 */
export function getReplayKeyAction(input: ReplayKeyInput): ReplayKeyAction | null {
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  if (input.targetEditable || (input.targetTag && TYPING_TAGS.has(input.targetTag.toUpperCase())))
    return null;
  switch (input.key) {
    case " ":
    case "Spacebar":
      // a focused button or link answers space itself (opening a run, say): playing too would be two acts
      return input.targetTag && CLICKABLE_TAGS.has(input.targetTag.toUpperCase()) ? null : "toggle";
    case "ArrowLeft":
      return "back";
    case "ArrowRight":
      return "forward";
    case "Home":
      return "start";
    case "End":
      return "end";
    case "+":
    case "=":
      return "faster";
    case "-":
    case "_":
      return "slower";
    default:
      return null;
  }
}
