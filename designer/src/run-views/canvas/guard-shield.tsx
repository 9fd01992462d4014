import type { GuardApplied } from "@waddle/protocol";
import type { ReactElement } from "react";
import { Icon } from "../../components/icon.js";
import { getGuardMarkText, getShieldMark } from "../../runs/fold/apply-guard-event.js";
import type { GuardMark } from "../../runs/fold/run-view.js";

const ACTION_WORDS: Record<GuardApplied, string> = {
  none: "passed",
  allow: "let through",
  flag: "flagged",
  redact: "redacted",
  pause: "paused",
  block: "blocked",
};

/**
 * A guard's shield: on a tool node whose results a guard acted on, beside the query (input guards) and
 * the answer (output guards). Its colour and word are the strongest decision; the tooltip lists every
 * guard there with what it found (counts by kind, never the text).
 */
export function GuardShield(props: {
  marks: readonly GuardMark[];
  /** The tool whose results these guards checked, for the tooltip. */
  tool?: string;
  /** Only shields of guards that did something (a tool node), or any decision (the query, the answer). */
  actedOnly?: boolean;
}): ReactElement | null {
  const marks = props.actedOnly ? props.marks.filter((mark) => mark.acted > 0) : props.marks;
  const shown = getShieldMark(marks);
  if (shown === null) return null;
  const title = marks.map((mark) => getGuardMarkText(mark, props.tool)).join("\n");
  const word = ACTION_WORDS[shown.action];
  return (
    <span
      className={`guard-shield action-${shown.action} verdict-${shown.verdict}`}
      data-testid="guard-shield"
      data-guard={shown.guard}
      data-on={shown.on}
      data-verdict={shown.verdict}
      data-action={shown.action}
      title={title}
      role="img"
      aria-label={title}
    >
      <Icon name="shield" size={11} />
      {word}
    </span>
  );
}
