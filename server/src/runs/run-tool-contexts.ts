import type { ResumeRequest, RunRecord } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

type ToolContext = Record<string, unknown>;

/** The keys a run record keeps of a toolContext (sorted, never the values); undefined when it has none. */
export function getToolContextKeys(toolContext: ToolContext | undefined): string[] | undefined {
  const keys = Object.keys(toolContext ?? {}).sort();
  return keys.length > 0 ? keys : undefined;
}

/**
 * The toolContexts of this process's runs. They may hold secrets, so they live in memory only and are gone
 * after a restart; the run record keeps their keys, so that a resume that would silently continue without
 * them is refused instead.
 */
export class RunToolContexts {
  private readonly contexts = new Map<string, ToolContext>();

  get(runId: string): ToolContext | undefined {
    return this.contexts.get(runId);
  }

  set(runId: string, toolContext: ToolContext | undefined): void {
    if (toolContext !== undefined) this.contexts.set(runId, toolContext);
  }

  delete(runId: string): void {
    this.contexts.delete(runId);
  }

  /**
   * Takes the toolContext a resume supplies (it replaces the one held), or checks that the one the run had is
   * still here: a 409 `conflict` when the run had one and this process no longer holds it.
   */
  acceptResume(run: RunRecord, request: ResumeRequest): void {
    if (request.toolContext !== undefined) {
      this.contexts.set(run.id, request.toolContext);
      return;
    }
    const keys = run.toolContextKeys ?? [];
    if (keys.length === 0 || this.contexts.has(run.id)) return;
    throw new ApiError(
      "conflict",
      `Run "${run.id}" was started with a toolContext (keys: ${keys.join(", ")}) that this server no ` +
        "longer holds: it restarted since, and never stores toolContext values. Resume again with the " +
        "same toolContext in the request body.",
      { toolContextRequired: true, toolContextKeys: keys },
    );
  }
}
