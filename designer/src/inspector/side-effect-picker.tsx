import { SIDE_EFFECTS, type SideEffect } from "@waddle/protocol";
import type { ReactElement } from "react";
import { SIDE_EFFECT_INFO } from "../components/side-effect-badge.js";
import { useFieldsetDenied } from "../components/permission-fieldset.js";

/** The five side effects as coloured choices. */
export function SideEffectPicker({
  value,
  onChange,
}: {
  value: SideEffect;
  onChange: (value: SideEffect) => void;
}): ReactElement {
  const denied = useFieldsetDenied();
  return (
    <div className="field">
      <span className="field-label">Side effects</span>
      <div className="se-picker" role="radiogroup" aria-label="Side effects">
        {SIDE_EFFECTS.map((sideEffect) => (
          <button
            key={sideEffect}
            type="button"
            role="radio"
            aria-checked={value === sideEffect}
            className={`se-choice se-${sideEffect}${value === sideEffect ? " is-active" : ""}`}
            title={denied ?? SIDE_EFFECT_INFO[sideEffect].blurb}
            data-testid={`side-effect-${sideEffect}`}
            onClick={() => onChange(sideEffect)}
          >
            {SIDE_EFFECT_INFO[sideEffect].label}
          </button>
        ))}
      </div>
      <p className="field-hint">{SIDE_EFFECT_INFO[value].blurb}</p>
    </div>
  );
}
