import type { RunContext } from "./run-context.js";
import { routeReasoning } from "../llm/reasoning-router.js";
import { scrubSecrets } from "../secrets/secret-scrubber.js";

/**
 * `reasoningEffort: "auto"` (docs/reasoning-effort.md): before the first planning call, the router
 * (`routerLlm`, else the main LLM) picks the effort and, among the candidate models, the model. The
 * choice is kept in the run state, so a resumed run keeps it without asking again.
 */
export async function routeRun(
  run: Pick<RunContext, "config" | "state" | "llmCaller" | "secrets" | "signal" | "applyRoute">,
): Promise<void> {
  const { config, state } = run;
  const llm = config.routerLlm ?? config.llm;
  let mark = config.clock();
  const route = await routeReasoning({
    llm,
    query: scrubSecrets(state.query, run.secrets),
    candidates: config.candidates.map((candidate) => ({
      id: candidate.id,
      description: candidate.description ?? "",
    })),
    signal: run.signal,
    onLlmCall: (result) => {
      const now = config.clock();
      run.llmCaller.recordCall({ llm, result, latencyMs: Math.max(0, now - mark), purpose: "route" });
      mark = now;
    },
  });
  state.route =
    route.modelId === undefined ? { effort: route.effort } : { effort: route.effort, modelId: route.modelId };
  run.applyRoute();
}
