import type { AgentSpec } from "@waddle/protocol";
import { CowArray, CowRecord } from "./copy-on-write.js";
import type {
  CallView,
  EdgeRunView,
  NodeRunView,
  ParallelView,
  RunCursor,
  RunTotals,
  RunView,
  StepView,
  TaskView,
  TimelineEntry,
  TransitionView,
} from "./run-view.js";

type Scalars = Omit<
  RunView,
  | "nodes"
  | "calls"
  | "callOrder"
  | "transitions"
  | "edges"
  | "parallels"
  | "timeline"
  | "steps"
  | "tasks"
  | "totals"
  | "cursor"
>;

export function createNodeRunView(): NodeRunView {
  return {
    state: "idle",
    calls: 0,
    failures: 0,
    totalMs: 0,
    attempt: 0,
    active: 0,
    lastCallId: null,
    changedSeq: 0,
  };
}

/**
 * A RunView being folded: scalars in one shallow copy, every container copy-on-write, so that a batch
 * copies each container and element at most once and the input view is never touched.
 */
export class RunViewDraft {
  readonly scalars: Scalars;
  readonly nodes: CowRecord<NodeRunView>;
  readonly calls: CowRecord<CallView>;
  readonly callOrder: CowArray<string>;
  readonly transitions: CowArray<TransitionView>;
  readonly edges: CowRecord<EdgeRunView>;
  readonly parallels: CowRecord<ParallelView>;
  readonly timeline: CowArray<TimelineEntry>;
  readonly steps: CowArray<StepView>;
  readonly tasks: CowRecord<TaskView>;
  private totalsCopy: RunTotals | null = null;
  private cursorCopy: RunCursor | null = null;

  constructor(
    private readonly base: RunView,
    readonly spec: AgentSpec | undefined,
  ) {
    const {
      nodes,
      calls,
      callOrder,
      transitions,
      edges,
      parallels,
      timeline,
      steps,
      tasks,
      totals: _totals,
      cursor: _cursor,
      ...scalars
    } = base;
    this.scalars = scalars;
    this.nodes = new CowRecord(nodes);
    this.calls = new CowRecord(calls);
    this.callOrder = new CowArray(callOrder);
    this.transitions = new CowArray(transitions);
    this.edges = new CowRecord(edges);
    this.parallels = new CowRecord(parallels);
    this.timeline = new CowArray(timeline);
    this.steps = new CowArray(steps);
    this.tasks = new CowRecord(tasks);
  }

  get totals(): RunTotals {
    return (this.totalsCopy ??= { ...this.base.totals });
  }

  get cursor(): RunCursor {
    return (this.cursorCopy ??= { ...this.base.cursor });
  }

  /** Reads the cursor without copying it. */
  get currentCursor(): RunCursor {
    return this.cursorCopy ?? this.base.cursor;
  }

  /** Records a transition, and on its edge. */
  addTransition(transition: TransitionView): void {
    this.transitions.push(transition);
    if (transition.edgeId === null) return;
    const edge = this.edges.edit(transition.edgeId);
    if (edge === undefined) this.edges.set(transition.edgeId, { count: 1, last: transition });
    else {
      edge.count += 1;
      edge.last = transition;
    }
  }

  /** The node of `tool` to change (created idle on first use). */
  node(tool: string): NodeRunView {
    return this.nodes.edit(tool) ?? this.nodes.set(tool, createNodeRunView());
  }

  /** The step view of `step` to change (steps arrive in order; a new one is appended). */
  step(step: number, at: { seq: number; ts: number }): StepView {
    for (let index = this.steps.length - 1; index >= 0; index -= 1) {
      const entry = this.steps.at(index);
      if (entry === undefined || entry.step < step) break;
      if (entry.step === step) return this.steps.edit(index) as StepView;
    }
    const created: StepView = {
      step,
      startSeq: at.seq,
      startTs: at.ts,
      endTs: at.ts,
      llmCalls: 0,
      tokens: 0,
      costUsd: 0,
      llmMs: 0,
      source: null,
      tools: [],
    };
    this.steps.push(created);
    return created;
  }

  toView(): RunView {
    return {
      ...this.scalars,
      nodes: this.nodes.result(),
      calls: this.calls.result(),
      callOrder: this.callOrder.result(),
      transitions: this.transitions.result(),
      edges: this.edges.result(),
      parallels: this.parallels.result(),
      timeline: this.timeline.result(),
      steps: this.steps.result(),
      tasks: this.tasks.result(),
      totals: this.totalsCopy ?? this.base.totals,
      cursor: this.cursorCopy ?? this.base.cursor,
    };
  }
}
