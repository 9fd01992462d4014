import {
  type Guard,
  type GuardApplied,
  type GuardFinding,
  type GuardInput,
  type GuardStage,
  Guard as GuardSchema,
  type RunEventData,
} from "@waddle/protocol";
import { compileCheck, type CheckHost, type CompiledCheck } from "./evaluate-check.js";
import type { ToolUsageReport } from "../catalog/tool-usage-report.js";
import { Cancellation, TimeoutError } from "../util/cancellation.js";
import { abortReason } from "../util/abortable-sleep.js";

/** Guards checked outside a run (no signal): only their own time limits stop them. */
const NOT_CANCELLABLE = new Cancellation();

/** One guard's decision, as its `guard_verdict` event carries it. */
export type GuardVerdictData = RunEventData<"guard_verdict">;

/** The guard that stopped a value (block) or wants a person (pause). */
export interface GuardStop {
  guard: string;
  on: GuardStage;
  findings: GuardFinding[];
  /** What the caller or model is told: the guard's own message, else one that names it. */
  message: string;
  tool?: string;
}

/**
 * What the guards of a stage decided on a value: `value` is what goes on (masked by `redact` guards);
 * `block` wins over `pause`, which wins over `pass`. `verdicts` in the order the guards ran.
 */
export interface GuardOutcome {
  decision: "pass" | "block" | "pause";
  value: unknown;
  verdicts: GuardVerdictData[];
  stop?: GuardStop;
  /** What `llm` checks' judges cost, for the run's usage. */
  usage: ToolUsageReport[];
}

interface CompiledGuard {
  guard: Guard;
  run: CompiledCheck;
}

/**
 * The agent's guards (docs/guides/guardrails.md), compiled once per planner. `apply` runs the guards of a
 * stage in their order on one value, each under its own time limit; a guard that throws or times out is an
 * `error` verdict that blocks unless its `onError` is `allow` (fail closed).
 */
export class GuardEngine {
  private readonly byStage: Record<GuardStage, CompiledGuard[]> = { input: [], tool_result: [], output: [] };

  constructor(
    guards: readonly (Guard | GuardInput)[],
    private readonly host: CheckHost,
    private readonly clock: () => number = Date.now,
  ) {
    for (const input of guards) {
      const guard = GuardSchema.parse(input);
      this.byStage[guard.on].push({ guard, run: compileCheck(guard.check, host) });
    }
  }

  /** True when some guard checks this stage (for `tool_result`, this tool). */
  has(stage: GuardStage, tool?: string): boolean {
    return this.guardsFor(stage, tool).length > 0;
  }

  /** The names of the guards that check this stage (for `tool_result`, this tool). */
  names(stage: GuardStage, tool?: string): string[] {
    return this.guardsFor(stage, tool).map(({ guard }) => guard.name);
  }

  /** The same guards with only these stages (a forked planner keeps its tool-result guards). */
  only(stages: readonly GuardStage[]): GuardEngine | undefined {
    const kept = stages.flatMap((stage) => this.byStage[stage].map(({ guard }) => guard));
    return kept.length === 0 ? undefined : new GuardEngine(kept, this.host, this.clock);
  }

  async apply(
    stage: GuardStage,
    value: unknown,
    context: { tool?: string; step?: number; cancellation?: Cancellation } = {},
  ): Promise<GuardOutcome> {
    const outcome: GuardOutcome = { decision: "pass", value, verdicts: [], usage: [] };
    const cancellation = context.cancellation ?? NOT_CANCELLABLE;
    for (const compiled of this.guardsFor(stage, context.tool)) {
      if (cancellation.aborted) throw abortReason(cancellation.signal);
      const verdict = await this.runOne(compiled, outcome.value, { ...context, stage, cancellation });
      outcome.verdicts.push(verdict.data);
      if (verdict.usage !== undefined) outcome.usage.push(verdict.usage);
      if (verdict.redacted !== undefined) outcome.value = verdict.redacted;
      if (
        verdict.data.action === "block" ||
        (verdict.data.action === "pause" && outcome.decision === "pass")
      ) {
        outcome.decision = verdict.data.action;
        outcome.stop = toStop(compiled.guard, verdict.data, context.tool);
      }
      // A blocked value goes no further: the guards after it have nothing to check.
      if (outcome.decision === "block") break;
    }
    return outcome;
  }

  private guardsFor(stage: GuardStage, tool: string | undefined): CompiledGuard[] {
    const guards = this.byStage[stage];
    if (stage !== "tool_result" || tool === undefined) return guards;
    return guards.filter(({ guard }) => guard.tools === undefined || guard.tools.includes(tool));
  }

  private async runOne(
    compiled: CompiledGuard,
    value: unknown,
    context: { stage: GuardStage; tool?: string; step?: number; cancellation: Cancellation },
  ): Promise<{ data: GuardVerdictData; redacted?: unknown; usage?: ToolUsageReport }> {
    const { guard } = compiled;
    const started = this.clock();
    const base = (verdict: GuardVerdictData["verdict"], action: GuardApplied, findings: GuardFinding[]) => {
      const data: GuardVerdictData = {
        guard: guard.name,
        on: guard.on,
        verdict,
        action,
        findings,
        check: guard.check.kind,
      };
      if (context.tool !== undefined) data.tool = context.tool;
      if (context.step !== undefined) data.step = context.step;
      data.durationMs = Math.max(0, this.clock() - started);
      return data;
    };
    // The check's own signal aborts when the run is cancelled or the guard's time is up.
    const work = new AbortController();
    const { cancellation } = context;
    try {
      const checkContext = {
        stage: context.stage,
        signal: work.signal,
        ...(context.tool === undefined ? {} : { tool: context.tool }),
      };
      const result = await cancellation.race(compiled.run(value, checkContext), {
        timeoutMs: guard.timeoutMs,
        onAbort: (reason) => work.abort(reason),
      });
      const usage = result.usage === undefined ? {} : { usage: result.usage };
      if (result.pass) return { data: base("pass", "none", []), ...usage };
      const data = base("fail", guard.action, result.findings);
      data.message = guard.message ?? result.message ?? getDefaultMessage(guard, result.findings);
      if (guard.action !== "redact") return { data, ...usage };
      return result.redacted === undefined
        ? { data: { ...data, action: "block" } }
        : { data, redacted: result.redacted };
    } catch (error) {
      // A cancelled run is not a guard's failure: let the run end as cancelled.
      if (cancellation.aborted) throw abortReason(cancellation.signal);
      const action: GuardApplied = guard.onError === "allow" ? "allow" : "block";
      const data = base("error", action, []);
      const why =
        error instanceof TimeoutError
          ? `took longer than its limit of ${guard.timeoutMs} ms`
          : error instanceof Error
            ? error.message
            : String(error);
      data.message =
        action === "block"
          ? `Guard "${guard.name}" could not check this (${why}), so it blocked it (fail closed; set onError: "allow" to let it pass).`
          : `Guard "${guard.name}" could not check this (${why}); onError "allow" let it pass.`;
      return { data };
    }
  }
}

function toStop(guard: Guard, data: GuardVerdictData, tool: string | undefined): GuardStop {
  const stop: GuardStop = {
    guard: guard.name,
    on: guard.on,
    findings: data.findings,
    message: data.message ?? getDefaultMessage(guard, data.findings),
  };
  if (tool !== undefined) stop.tool = tool;
  return stop;
}

/** "2 email, 1 card": what a guard found, by kind, for messages and timelines. */
export function describeFindings(findings: readonly GuardFinding[]): string {
  return findings.map((finding) => `${finding.count} ${finding.kind}`).join(", ");
}

function getDefaultMessage(guard: Guard, findings: readonly GuardFinding[]): string {
  const what = findings.length === 0 ? "" : ` (found ${describeFindings(findings)})`;
  const subject =
    guard.on === "input" ? "the request" : guard.on === "output" ? "the answer" : "this tool result";
  return `Guard "${guard.name}" stopped ${subject}${what}.`;
}
