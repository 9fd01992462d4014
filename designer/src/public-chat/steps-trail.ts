import type { PublicStep, ShowSteps } from "@waddle/protocol";
import { createElement } from "./create-element.js";

const STATUS_TEXT: Readonly<Record<PublicStep["status"], string>> = {
  running: "running",
  done: "done",
  failed: "failed",
};

/** A value as readable JSON text, bounded (a tool result may be large). */
function formatValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 4_000 ? `${text.slice(0, 4_000)}\n…` : text;
}

function createStepItem(step: PublicStep, full: boolean): HTMLLIElement {
  const head = [
    createElement("span", { class: `chat-step-dot is-${step.status}`, "aria-hidden": "true" }),
    createElement("span", { class: "chat-step-name" }, [step.name]),
    createElement("span", { class: "chat-step-status" }, [STATUS_TEXT[step.status]]),
  ];
  const hasDetail = full && (step.args !== undefined || step.result !== undefined);
  if (!hasDetail) return createElement("li", { class: "chat-step" }, head);
  return createElement("li", { class: "chat-step" }, [
    createElement("details", {}, [
      createElement("summary", {}, head),
      step.args !== undefined
        ? createElement("div", { class: "chat-step-detail" }, [
            createElement("span", { class: "chat-step-label" }, ["Input"]),
            createElement("pre", {}, [formatValue(step.args)]),
          ])
        : null,
      step.result !== undefined
        ? createElement("div", { class: "chat-step-detail" }, [
            createElement("span", { class: "chat-step-label" }, ["Result"]),
            createElement("pre", {}, [formatValue(step.result)]),
          ])
        : null,
    ]),
  ]);
}

/**
 * The collapsible trail of what the agent did under an answer: tool names (`names`), or each step with its
 * input and result (`full`). Nothing with `none` or before the first step. Text only, never markup.
 */
export function createStepsTrail(
  steps: readonly PublicStep[],
  showSteps: ShowSteps,
  open: boolean,
): HTMLDetailsElement | null {
  if (showSteps === "none" || steps.length === 0) return null;
  const count = `${steps.length} step${steps.length === 1 ? "" : "s"}`;
  const trail = createElement("details", { class: "chat-steps", "data-testid": "chat-steps" }, [
    createElement("summary", {}, [`What the agent did · ${count}`]),
    createElement(
      "ol",
      { class: "chat-step-list" },
      steps.map((step) => createStepItem(step, showSteps === "full")),
    ),
  ]);
  trail.open = open;
  return trail;
}
