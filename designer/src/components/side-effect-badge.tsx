import type { SideEffect } from "@waddle/protocol";
import type { ReactElement } from "react";

export const SIDE_EFFECT_INFO: Record<SideEffect, { label: string; blurb: string }> = {
  pure: { label: "pure", blurb: "No side effects: safe to call any time, and to auto-run." },
  read: { label: "read", blurb: "Reads data but changes nothing." },
  write: { label: "write", blurb: "Changes data the agent owns." },
  external: { label: "external", blurb: "Acts on the outside world (sends, pays, posts)." },
  stateful: {
    label: "stateful",
    blurb: "Depends on or changes hidden state; calls are not interchangeable.",
  },
};

/** A coloured side-effect chip; each side effect has its own colour everywhere in the designer. */
export function SideEffectBadge({ sideEffect }: { sideEffect: SideEffect }): ReactElement {
  return (
    <span className={`badge se-badge se-${sideEffect}`} title={SIDE_EFFECT_INFO[sideEffect].blurb}>
      {SIDE_EFFECT_INFO[sideEffect].label}
    </span>
  );
}
