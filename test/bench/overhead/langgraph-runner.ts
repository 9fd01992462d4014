import { BaseChatModel, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { FINAL_ANSWER, NOOP_TOOLS, type ScriptedStep } from "./overhead-tools.js";

/**
 * A chat model that returns a scripted trajectory as native tool calls, instantly: one tool call per
 * turn, then the final answer. `bindTools` returns a copy that knows the bound tool names (and refuses to
 * call any other), the way a real provider model rejects unknown tools. `reset()` before each run.
 */
export class ScriptedToolCallModel extends BaseChatModel {
  private cursor = { index: 0 };
  private boundNames: ReadonlySet<string> = new Set();

  constructor(private readonly trajectory: readonly ScriptedStep[]) {
    super({});
  }

  _llmType(): string {
    return "scripted-tool-calls";
  }

  override bindTools(tools: BindToolsInput[]): ScriptedToolCallModel {
    const bound = new ScriptedToolCallModel(this.trajectory);
    bound.cursor = this.cursor;
    bound.boundNames = new Set(tools.map(getToolName));
    return bound;
  }

  reset(): void {
    this.cursor.index = 0;
  }

  // The scripted reply does not depend on the messages: the model is as cheap as it can be.
  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const index = this.cursor.index;
    this.cursor.index += 1;
    const step = this.trajectory[index];
    if (step === undefined) {
      const message = new AIMessage({ content: FINAL_ANSWER });
      return { generations: [{ text: FINAL_ANSWER, message }] };
    }
    if (!this.boundNames.has(step.tool)) throw new Error(`Tool "${step.tool}" is not bound to the model.`);
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: `call_${index}`, name: step.tool, args: step.args, type: "tool_call" }],
    });
    return { generations: [{ text: "", message }] };
  }
}

/** The name of a bound tool: a LangChain tool's `name`, or an OpenAI-format definition's `function.name`. */
function getToolName(input: BindToolsInput): string {
  const record = input as { name?: unknown; function?: { name?: unknown } };
  if (typeof record.name === "string") return record.name;
  return typeof record.function?.name === "string" ? record.function.name : "";
}

/** The five no-op tools as LangChain tools (zod schemas, JSON string results). */
export function createLangChainTools(): StructuredToolInterface[] {
  return NOOP_TOOLS.map((noop) =>
    tool((args: Record<string, unknown>) => JSON.stringify(noop.run(args)), {
      name: noop.name,
      description: noop.description,
      schema: noop.args,
    }),
  ) as StructuredToolInterface[];
}

/** What one LangGraph run saw: streamed updates, tool messages, and the last message's text. */
export interface LangGraphRunStats {
  updates: number;
  toolMessages: number;
  answer: string;
}

/**
 * LangGraph.js's prebuilt ReAct agent (`createReactAgent`) over the scripted model and the five tools,
 * compiled once; each run consumes its streamed updates (`streamMode: "updates"`).
 */
export function createLangGraphRunner(trajectory: readonly ScriptedStep[]): () => Promise<LangGraphRunStats> {
  const model = new ScriptedToolCallModel(trajectory);
  const agent = createReactAgent({ llm: model, tools: createLangChainTools() });
  // Each tool step is two supersteps (agent, tools), plus the final agent turn.
  const recursionLimit = 2 * trajectory.length + 5;
  return async () => {
    model.reset();
    let updates = 0;
    let toolMessages = 0;
    let answer = "";
    const stream = await agent.stream(
      { messages: [new HumanMessage("Run the scripted trajectory.")] },
      { streamMode: "updates", recursionLimit },
    );
    for await (const chunk of stream) {
      updates += 1;
      const tools = (chunk as { tools?: { messages?: unknown[] } }).tools;
      toolMessages += tools?.messages?.length ?? 0;
      const agentUpdate = (chunk as { agent?: { messages?: BaseMessage[] } }).agent;
      const last = agentUpdate?.messages?.at(-1);
      if (last !== undefined && typeof last.content === "string") answer = last.content;
    }
    return { updates, toolMessages, answer };
  };
}
