import { parseJson, PlannerAction } from "@waddle/protocol";
import { abortableSleep, type Sleep } from "../../util/abortable-sleep.js";
import type { LlmClient, LlmCompleteOptions, LlmMessage, LlmResult } from "../llm-client.js";
import { LlmError } from "../../errors/llm-error.js";
import { fillOfflineArgs } from "./offline-args.js";
import { assembleOfflineAnswer } from "./offline-answer.js";
import { planOfflineAction } from "./offline-plan.js";
import { getRunProgress } from "./offline-progress.js";
import { shapeOfflineAnswer } from "./offline-structured-answer.js";
import { summarizeOffline } from "./offline-summary.js";
import { OfflineView } from "./offline-view.js";

export interface OfflineModelOptions {
  /** Characters per streamed content delta (default 24). */
  chunkSize?: number;
  /** Pause between the deltas of a final answer, so that it visibly streams (default 30 ms; 0 in tests). */
  chunkDelayMs?: number;
  sleep?: Sleep;
}

/**
 * The embedded default model when no key is configured: a deterministic planner that needs no network. It
 * plans from `options.plannerView` (the agent's structure and the run so far), never from the prose of the
 * prompt, and says what it is: provider and model `offline`, `offline = true`.
 */
export class OfflineModel implements LlmClient {
  readonly provider = "offline";
  readonly model = "offline";
  readonly offline = true;
  readonly #chunkSize: number;
  readonly #chunkDelayMs: number;
  readonly #sleep: Sleep;

  constructor(options: OfflineModelOptions = {}) {
    this.#chunkSize = Math.max(1, options.chunkSize ?? 24);
    this.#chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 30);
    this.#sleep = options.sleep ?? abortableSleep;
  }

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    this.#throwIfCancelled(options.signal);
    const reply = this.#reply(options);
    if (options.stream === true && options.onChunk !== undefined) {
      if (reply.reasoning !== undefined) options.onChunk({ reasoning: reply.reasoning });
      await this.#stream({ content: reply.content, options, pause: reply.final ? this.#chunkDelayMs : 0 });
    }
    const result: LlmResult = {
      content: reply.content,
      model: this.model,
      costUsd: 0,
      // Every reply is whole (an action's JSON, never cut short): what an endpoint says as `stop`.
      finishReason: "stop",
      // Estimated like the planner's own budgets (about four characters a token): nothing was billed.
      usage: {
        promptTokens: Math.ceil(
          options.messages.reduce((sum, message) => sum + message.content.length, 0) / 4,
        ),
        completionTokens: Math.ceil(reply.content.length / 4),
      },
    };
    if (reply.reasoning !== undefined) result.reasoning = reply.reasoning;
    return result;
  }

  #reply(options: LlmCompleteOptions): { content: string; reasoning?: string; final: boolean } {
    if (options.purpose === "route") return { content: JSON.stringify({ effort: "low" }), final: false };
    const parsedView =
      options.plannerView === undefined ? undefined : OfflineView.safeParse(options.plannerView);
    if (parsedView !== undefined && !parsedView.success) {
      const issue = parsedView.error.issues[0];
      throw new LlmError(
        "invalid_request",
        `The offline model could not read plannerView at ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}.`,
        { details: { provider: this.provider, model: this.model } },
      );
    }
    const view = parsedView?.data;
    if (options.purpose === "summarize" || (view === undefined && options.purpose === "repair")) {
      const summary = summarizeOffline({ messages: options.messages, ...(view ? { view } : {}) });
      return { content: JSON.stringify(summary), final: false };
    }
    if (view === undefined) {
      throw new LlmError(
        "invalid_request",
        `The offline model plans from options.plannerView, and this ${options.purpose ?? "plan"} call has none. ` +
          "Run it through ReactPlanner (which passes the view), or configure a real model (llm.provider: openai).",
        { details: { provider: this.provider, model: this.model, purpose: options.purpose } },
      );
    }
    if (options.purpose === "answer") {
      // A budget ran out: answer from what ran, as the offline planner's own finish would.
      const progress = getRunProgress(view);
      const written = assembleOfflineAnswer({ query: view.query, progress, replaced: new Map() });
      const action = shapeOfflineAnswer(
        { next_node: "final_response", args: { answer: written.answer, requires_followup: true } },
        { schema: view.answerSchema, query: view.query, observations: progress.observations },
      );
      return {
        content: JSON.stringify(action),
        reasoning: "Offline planner: answering within the budget.",
        final: true,
      };
    }
    const refusedAction = view.lastError === undefined ? undefined : findLastAction(options.messages);
    if (options.purpose === "arg_fill" && refusedAction !== undefined) {
      const tool = view.tools.find((candidate) => candidate.name === refusedAction.next_node);
      if (tool !== undefined) {
        const observations = getRunProgress(view).observations;
        const args = fillOfflineArgs({
          argsSchema: tool.argsSchema,
          query: view.query,
          observations,
          forceRequired: true,
        });
        return {
          content: JSON.stringify(args),
          reasoning: `Filling the arguments of ${tool.name}.`,
          final: false,
        };
      }
    }
    const decision = planOfflineAction({ view, ...(refusedAction ? { refusedAction } : {}) });
    const action = shapeOfflineAnswer(decision.action, {
      schema: view.answerSchema,
      query: view.query,
      observations: view.answerSchema === undefined ? [] : getRunProgress(view).observations,
    });
    return {
      content: JSON.stringify(action),
      reasoning: `Offline planner: ${decision.rationale}`,
      final: decision.action.next_node === "final_response",
    };
  }

  async #stream(input: { content: string; options: LlmCompleteOptions; pause: number }): Promise<void> {
    const { content, options, pause } = input;
    for (let start = 0; start < content.length; start += this.#chunkSize) {
      if (start > 0 && pause > 0) {
        try {
          await this.#sleep(pause, options.signal);
        } catch {
          this.#throwIfCancelled(options.signal);
        }
      }
      this.#throwIfCancelled(options.signal);
      options.onChunk?.({ content: content.slice(start, start + this.#chunkSize) });
    }
  }

  #throwIfCancelled(signal: AbortSignal | undefined): void {
    if (signal?.aborted === true) {
      throw new LlmError("cancelled", "The offline model's call was cancelled.", {
        details: { provider: this.provider, model: this.model },
      });
    }
  }
}

/**
 * The newest assistant reply as an action: what a repair or correction call is about. The planner echoes
 * long replies cut short; then only the tool name is recovered.
 */
function findLastAction(messages: readonly LlmMessage[]): PlannerAction | undefined {
  const reply = [...messages].reverse().find((message) => message.role === "assistant");
  if (reply === undefined) return undefined;
  const json = parseJson(reply.content);
  const parsed = PlannerAction.safeParse(json.ok ? json.value : undefined);
  if (parsed.success) return parsed.data;
  const name = /"next_node"\s*:\s*"([^"]+)"/.exec(reply.content)?.[1];
  return name === undefined ? undefined : { next_node: name, args: {} };
}
