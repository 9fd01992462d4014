import type { PlannerAction, PlannerOptions, ToolFailure } from "@waddle/protocol";

export type TaskOpcode = "task.subagent" | "task.tool";

export interface OpcodeContext {
  action: PlannerAction;
  options: PlannerOptions;
  runId: string;
  step: number;
  signal: AbortSignal;
}

/** What a task opcode leaves in the trajectory: an observation, or a structured failure. */
export type OpcodeResult = { observation: unknown } | { failure: ToolFailure };

export type OpcodeHandler = (context: OpcodeContext) => Promise<OpcodeResult>;

export type OpcodeHandlers = Readonly<Record<TaskOpcode, OpcodeHandler>>;

export const TASKS_DISABLED_MESSAGE = "background tasks are not enabled for this agent";

/**
 * Whenever `tasks.enabled` is false, task opcodes become a structured error observation so that the LLM
 * plans without them (docs/task-opcodes.md).
 */
export const tasksDisabledHandler: OpcodeHandler = (context) =>
  Promise.resolve({
    failure: {
      node: context.action.next_node,
      args: context.action.args,
      error_code: "tasks_disabled",
      message: TASKS_DISABLED_MESSAGE,
      suggestion: "Do the work with tool calls in this run instead.",
    },
  });

export const DEFAULT_OPCODE_HANDLERS: OpcodeHandlers = {
  "task.subagent": tasksDisabledHandler,
  "task.tool": tasksDisabledHandler,
};
