import { BudgetHints, getFieldBounds, PlannerOptions, type PlanningHints } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { ListField, NumberField } from "../components/fields.js";
import { Icon } from "../components/icon.js";
import { Section } from "../components/section.js";
import { getOrderingChain } from "../graph/get-ordering-chain.js";
import type { ToolHintList } from "../model/spec-change.js";

const LISTS: readonly { list: ToolHintList; label: string; title: string }[] = [
  { list: "prefer_nodes", label: "Prefer", title: "prefer_nodes: the planner is told to favour these tools" },
  { list: "disallow_nodes", label: "Disallow", title: "disallow_nodes: never called (enforced in code)" },
  { list: "sequential_only", label: "Seq. only", title: "sequential_only: never a parallel branch" },
];

const BUDGET_BOUNDS = getFieldBounds(BudgetHints);
const PLANNER_BOUNDS = getFieldBounds(PlannerOptions);

/** PenguiFlow planning hints: per-tool marks, ordering, parallel groups and budgets. */
export function HintsPanel(): ReactElement {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const dispatch = editor.document.getState().dispatch;
  const setHints = (patch: Partial<PlanningHints>, key: string) =>
    dispatch({ type: "updateHints", patch }, { coalesceKey: `hints:${key}` });
  const setPlanner = (patch: Partial<PlannerOptions>, key: string) =>
    dispatch({ type: "updatePlanner", patch }, { coalesceKey: `planner:${key}` });
  const { chain, cycle } = getOrderingChain(spec);
  const { hints } = spec;
  return (
    <div className="panel-body" data-testid="hints-panel">
      <Section title="Per tool">
        {spec.tools.length === 0 ? (
          <p className="empty-note">Add tools to mark them preferred, disallowed or sequential-only.</p>
        ) : (
          <table className="hint-table">
            <thead>
              <tr>
                <th>Tool</th>
                {LISTS.map(({ list, label, title }) => (
                  <th key={list} title={title}>
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {spec.tools.map((tool) => (
                <tr key={tool.name}>
                  <td className="mono">{tool.name}</td>
                  {LISTS.map(({ list, label }) => (
                    <td key={list}>
                      <input
                        type="checkbox"
                        aria-label={`${label} ${tool.name}`}
                        data-testid={`hint-${list}-${tool.name}`}
                        checked={hints[list].includes(tool.name)}
                        onChange={(event) =>
                          dispatch({
                            type: "setToolHint",
                            tool: tool.name,
                            list,
                            enabled: event.target.checked,
                          })
                        }
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title="Ordering">
        <div className="field">
          <span
            className="field-label"
            title="Order edges on the canvas add to the ordering hints at run time"
          >
            From order edges
          </span>
          {chain.length === 0 && cycle.length === 0 ? (
            <p className="field-hint">No order edges yet: draw one with the “Order” edge kind.</p>
          ) : null}
          <div className="chain" data-testid="ordering-chain">
            {chain.map((name, index) => (
              <span key={name} className="chain-item">
                {index > 0 ? <Icon name="chevron" size={12} /> : null}
                <span className="chip mono">{name}</span>
              </span>
            ))}
          </div>
          {cycle.length > 0 ? (
            <p className="field-error">The order edges form a cycle through {cycle.join(", ")}.</p>
          ) : null}
        </div>
        <ListField
          label="ordering_hints"
          value={hints.ordering_hints}
          onChange={(ordering_hints) => setHints({ ordering_hints }, "ordering")}
          placeholder="first_tool, second_tool"
          hint="The explicit order, as PenguiFlow's ordering_hints."
          testId="ordering-hints-input"
        />
        {chain.length > 1 ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setHints({ ordering_hints: chain }, "ordering-chain")}
          >
            Use the chain from order edges
          </button>
        ) : null}
      </Section>
      <Section title="Parallel groups (hints)" defaultOpen={hints.parallel_groups.length > 0}>
        <p className="field-hint">
          Tools the planner may run together. Frames drawn on the canvas add to these.
        </p>
        {hints.parallel_groups.map((group, index) => (
          <div key={index} className="row-with-action">
            <ListField
              label={`Group ${index + 1}`}
              value={group}
              onChange={(names) =>
                setHints(
                  { parallel_groups: hints.parallel_groups.map((g, i) => (i === index ? names : g)) },
                  `parallel-${index}`,
                )
              }
            />
            <button
              type="button"
              className="icon-btn is-danger"
              aria-label={`Remove group ${index + 1}`}
              onClick={() =>
                setHints({ parallel_groups: hints.parallel_groups.filter((_, i) => i !== index) }, "parallel")
              }
            >
              <Icon name="close" size={14} />
            </button>
          </div>
        ))}
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => setHints({ parallel_groups: [...hints.parallel_groups, []] }, "parallel")}
        >
          <Icon name="plus" size={14} /> Hint group
        </button>
      </Section>
      <Section title="Budgets">
        <div className="field-grid">
          <NumberField
            label="Max parallel"
            value={hints.budget_hints.max_parallel}
            {...BUDGET_BOUNDS.max_parallel}
            onChange={(max_parallel) =>
              setHints({ budget_hints: { ...hints.budget_hints, max_parallel } }, "max_parallel")
            }
            placeholder="no limit"
            hint="budget_hints.max_parallel"
            testId="budget-max-parallel"
          />
          <NumberField
            label="Max cost (USD)"
            value={hints.budget_hints.max_cost_usd}
            {...BUDGET_BOUNDS.max_cost_usd}
            onChange={(max_cost_usd) =>
              setHints({ budget_hints: { ...hints.budget_hints, max_cost_usd } }, "max_cost_usd")
            }
            placeholder="no limit"
            hint="budget_hints.max_cost_usd"
            testId="budget-max-cost"
          />
          <NumberField
            label="Deadline (s)"
            value={spec.planner.deadlineS}
            {...PLANNER_BOUNDS.deadlineS}
            onChange={(deadlineS) => setPlanner({ deadlineS }, "deadlineS")}
            placeholder="none"
            hint="Wall-clock limit for a run."
            testId="budget-deadline"
          />
          <NumberField
            label="Hop budget"
            value={spec.planner.hopBudget}
            {...PLANNER_BOUNDS.hopBudget}
            onChange={(hopBudget) => setPlanner({ hopBudget }, "hopBudget")}
            placeholder="none"
            hint="At most this many tool calls."
            testId="budget-hops"
          />
          <NumberField
            label="Token budget"
            value={spec.planner.tokenBudget}
            {...PLANNER_BOUNDS.tokenBudget}
            onChange={(tokenBudget) => setPlanner({ tokenBudget }, "tokenBudget")}
            placeholder="none"
            hint="Summarize the history beyond this."
            testId="budget-tokens"
          />
        </div>
      </Section>
    </div>
  );
}
