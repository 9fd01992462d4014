import { randomUUID } from "node:crypto";
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client,
} from "@a2a-js/sdk/client";
import { Role, TaskState, taskStateToJSON, type Message, type Part, type StreamResponse } from "@a2a-js/sdk";
import type { A2aImpl, ToolSpec } from "@waddle/protocol";
import type { ToolRunContext, ToolRunner } from "@waddle/planner";
import { z } from "zod";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { getSubagentQuery } from "./agent-tool.js";
import { A2A_CARD_TTL_MS, createAllowListedFetch, fetchA2aCard, type A2aCardSummary } from "./a2a-card.js";
import type { HostAllowList } from "./host-allow-list.js";
import type { HostLookup } from "./resolve-allowed-address.js";
import { resolveHeaders } from "./http-tool.js";
import { ToolExecutionError } from "./tool-execution-error.js";

type A2aImplConfig = z.output<typeof A2aImpl>;

const DEFAULT_TIMEOUT_MS = 300_000;

export interface A2aToolOptions {
  tool: ToolSpec & { impl: A2aImplConfig };
  allowList: HostAllowList;
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  lookup?: HostLookup;
}

/**
 * The remote task a paused call waits on, read back from its own pause payload: the pause is stored with
 * the run, so the answer reaches that task after a restart and from any instance.
 */
const WaitingTask = z.object({
  kind: z.literal("a2a_input_required"),
  taskId: z.string().min(1),
  // Pauses saved before the context was kept: the remote server finds the context from the task.
  contextId: z.string().default(""),
});

/** Cards by URL (and headers): read once per `A2A_CARD_TTL_MS`. */
const cards = new Map<string, { at: number; card: Awaited<ReturnType<typeof fetchA2aCard>> }>();

const textPart = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

/**
 * Runs an `a2a` tool: reads the remote agent's card (cached, capped, through the allow-list), sends the
 * args as a message (`args.query`, else the args as JSON), and streams the remote task's status into the
 * run as `tool_progress`. A remote `input-required` pauses the run (`await_input`) with the remote
 * question; the person's answer (`decision`, `userInput` as the note) is sent back to that remote task when
 * the run resumes. The observation is the answer's text, the task id and state, and any data parts.
 */
export function createA2aToolRunner(options: A2aToolOptions): ToolRunner {
  const { tool, redactor } = options;
  const impl = tool.impl;
  return async (args, context) => {
    const headers = resolveHeaders(impl, options.secrets);
    const timeoutMs = impl.timeoutMs ?? tool.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
    const fetchOptions = {
      allowList: options.allowList,
      headers,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    };
    const cacheKey = JSON.stringify([impl.url, headers]);
    let cached = cards.get(cacheKey);
    if (!cached || Date.now() - cached.at > A2A_CARD_TTL_MS) {
      cached = { at: Date.now(), card: await fetchA2aCard(impl.url, { ...fetchOptions, signal }) };
      cards.set(cacheKey, cached);
    }
    const { card, summary } = cached.card;
    const client = await createClient(card, createAllowListedFetch({ ...fetchOptions, signal }));
    const message = getMessage(args, context, getWaitingTask(context, impl.url));
    let outcome: Outcome;
    try {
      outcome = await follow({ client, message, summary, context, signal });
    } catch (error) {
      if (error instanceof ToolExecutionError) throw error;
      throw new ToolExecutionError(
        "a2a_unavailable",
        `The A2A agent "${summary.name}" at ${impl.url} failed: ${redactor.redactText(error instanceof Error ? error.message : String(error))}`,
        !context.signal.aborted,
        { url: impl.url },
      );
    }
    if (outcome.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      context.pause("await_input", {
        kind: "a2a_input_required",
        agent: summary.name,
        url: impl.url,
        taskId: outcome.taskId,
        contextId: outcome.contextId,
        question: redactor.redactText(outcome.statusText.slice(0, 4_000)),
        data: redactor.redact(outcome.statusData ?? null),
        howToAnswer:
          'Resume with "approve" (or "reject", or "edit" with args) and userInput: your answer; it is sent to the remote agent.',
      });
    }
    if (outcome.state !== TaskState.TASK_STATE_COMPLETED) {
      throw new ToolExecutionError(
        "a2a_task_failed",
        `The A2A agent "${summary.name}" ended its task ${outcome.taskId} as ${taskStateToJSON(outcome.state)}: ${outcome.statusText.slice(0, 2_000) || "(no message)"}`,
        false,
        { taskId: outcome.taskId },
      );
    }
    return redactor.redact({
      text: outcome.answer,
      taskId: outcome.taskId,
      state: "completed",
      ...(outcome.data.length > 0 ? { data: outcome.data } : {}),
    }) as Record<string, unknown>;
  };
}

/**
 * The remote task a resumed call answers. A resumed call whose pause names no task cannot answer it, and
 * sending the args as a new task would run the remote agent twice: that is a tool error instead.
 */
export function getWaitingTask(
  context: ToolRunContext,
  url: string,
): { taskId: string; contextId: string } | undefined {
  if (context.resumeInput === undefined) return undefined;
  const parsed = WaitingTask.safeParse(context.resumeInput.pausePayload);
  if (parsed.success) return { taskId: parsed.data.taskId, contextId: parsed.data.contextId };
  throw new ToolExecutionError(
    "a2a_task_unknown",
    `This call was resumed, but its pause does not say which task of the A2A agent at ${url} it waits on, so the answer cannot be sent. Ask the agent to make the call again.`,
    false,
    { url },
  );
}

async function createClient(
  card: Parameters<ClientFactory["createFromAgentCard"]>[0],
  fetchImpl: typeof fetch,
): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    }),
  );
  return factory.createFromAgentCard(card);
}

function getMessage(
  args: Record<string, unknown>,
  context: ToolRunContext,
  answering: { taskId: string; contextId: string } | undefined,
): Message {
  const base = {
    messageId: randomUUID(),
    role: Role.ROLE_USER,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  if (answering && context.resumeInput) {
    const { decision, userInput, args: edited } = context.resumeInput;
    const answer = {
      decision,
      ...(edited ? { args: edited } : {}),
      ...(userInput ? { note: userInput } : {}),
    };
    return {
      ...base,
      taskId: answering.taskId,
      contextId: answering.contextId,
      parts: [
        ...(userInput ? [textPart(userInput)] : []),
        {
          content: { $case: "data", value: answer },
          metadata: undefined,
          filename: "",
          mediaType: "application/json",
        },
      ],
    };
  }
  return { ...base, taskId: "", contextId: "", parts: [textPart(getSubagentQuery(args))] };
}

interface Outcome {
  taskId: string;
  contextId: string;
  state: TaskState;
  answer: string;
  data: unknown[];
  statusText: string;
  statusData: unknown;
}

/** Sends the message and follows the remote task (streamed when the card says so) to its end or a question. */
async function follow(input: {
  client: Client;
  message: Message;
  summary: A2aCardSummary;
  context: ToolRunContext;
  signal: AbortSignal;
}): Promise<Outcome> {
  const { client, message, context, signal } = input;
  const request = { tenant: "", message, configuration: undefined, metadata: undefined };
  const outcome: Outcome = {
    taskId: message.taskId,
    contextId: message.contextId,
    state: TaskState.TASK_STATE_SUBMITTED,
    answer: "",
    data: [],
    statusText: "",
    statusData: undefined,
  };
  const answers: string[] = [];
  const apply = (event: StreamResponse["payload"]) => {
    switch (event?.$case) {
      case "task": {
        const task = event.value;
        outcome.taskId = task.id;
        outcome.contextId = task.contextId;
        if (task.status) setStatus(outcome, task.status.state, task.status.message);
        for (const artifact of task.artifacts) collect(artifact.parts, answers, outcome.data);
        break;
      }
      case "statusUpdate": {
        const status = event.value.status;
        if (!status) break;
        setStatus(outcome, status.state, status.message);
        context.reportProgress?.({
          progress: 0,
          message: `${taskStateToJSON(status.state).replace("TASK_STATE_", "").toLowerCase()}${outcome.statusText ? `: ${outcome.statusText}` : ""}`,
        });
        break;
      }
      case "artifactUpdate":
        if (event.value.artifact) collect(event.value.artifact.parts, answers, outcome.data);
        break;
      case "message":
        outcome.state = TaskState.TASK_STATE_COMPLETED;
        collect(event.value.parts, answers, outcome.data);
        break;
    }
  };
  if (input.summary.streaming) {
    for await (const event of client.sendMessageStream(request, { signal })) apply(event.payload);
  } else {
    const result = await client.sendMessage(request, { signal });
    apply("parts" in result ? { $case: "message", value: result } : { $case: "task", value: result });
  }
  outcome.answer = answers.join("\n");
  return outcome;
}

function setStatus(outcome: Outcome, state: TaskState, message: Message | undefined): void {
  outcome.state = state;
  if (!message) return;
  const texts: string[] = [];
  const data: unknown[] = [];
  collect(message.parts, texts, data);
  outcome.statusText = texts.join("\n");
  outcome.statusData = data[0];
}

function collect(parts: Part[], texts: string[], data: unknown[]): void {
  for (const part of parts) {
    if (part.metadata?.kind === "thinking") continue;
    if (part.content?.$case === "text") texts.push(part.content.value);
    else if (part.content?.$case === "data") data.push(part.content.value);
  }
}
