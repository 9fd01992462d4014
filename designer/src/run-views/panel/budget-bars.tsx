import type { ReactElement } from "react";
import type { BudgetBar } from "./get-budget-bars.js";

/** The run's totals against the agent's budgets (tokens, cost, hops, deadline) as burn-down bars. */
export function BudgetBars({ bars }: { bars: readonly BudgetBar[] }): ReactElement {
  return (
    <div className="budget-bars" data-testid="budget-bars" role="group" aria-label="Budgets">
      {bars.length === 0 ? (
        <p className="run-muted">
          No budgets set (planner token, hop and time budgets, and the hints' max cost add bars here).
        </p>
      ) : (
        bars.map((bar) => (
          <div
            key={bar.key}
            className={`budget-bar tone-${bar.tone}`}
            title={bar.title}
            data-testid={`budget-${bar.key}`}
            data-over={bar.over}
          >
            <span className="budget-label">{bar.label}</span>
            <span
              className="budget-track"
              role="meter"
              aria-label={`${bar.label} budget used`}
              aria-valuemin={0}
              aria-valuemax={bar.limit}
              aria-valuenow={Math.min(bar.used, bar.limit)}
              aria-valuetext={`${bar.text}, ${bar.leftText}`}
            >
              <span className="budget-fill" style={{ width: `${Math.round(bar.ratio * 1000) / 10}%` }} />
            </span>
            <span className="budget-text">
              {bar.text} <span className="budget-left">· {bar.leftText}</span>
            </span>
          </div>
        ))
      )}
    </div>
  );
}
