import path from "node:path";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import {
  StartSessionTurnResponse,
  type RunRecord,
  type SessionRecord,
  type StartSessionTurnRequest,
} from "@waddle/protocol";
import { UsageError, type CliIo } from "./cli-io.js";
import { followRun } from "./follow-run.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

export interface ChatCommandOptions {
  agentId: string;
  /** A server to chat through; without it, one runs in this process on `dataDir` for the chat's length. */
  server?: string;
  token?: string;
  /** Continue this session instead of starting one. */
  sessionId?: string;
  /** A new session pins what this channel serves (`latest`: the latest save); default: production, if any. */
  channel?: string;
  dataDir: string;
  io: CliIo;
}

export const CHAT_HELP = [
  "Type a message and press Enter. Commands:",
  "  /approve [note]   approve what waits: the turn's pause, or the first pending merge of task results",
  "  /reject [note]    reject it",
  "  /tasks            the session's background tasks and pending merges",
  "  /quit             leave (the session stays: continue it with --session)",
  "",
].join("\n");

/**
 * `waddle chat <agent>`: a terminal chat, one turn per message, each followed live (pauses asked inline),
 * on a server or in-process. Returns the exit code: 0 after /quit, 2 without a terminal.
 */
export async function chatCommand(options: ChatCommandOptions): Promise<number> {
  const { io } = options;
  const prompt = io.prompt;
  if (!prompt)
    throw new UsageError("chat needs a terminal: run it in one, or use waddle run for a single query.");
  let local: WaddleServer | undefined;
  try {
    if (!options.server) {
      local = await createWaddleServer({
        port: 0,
        dataDir: options.dataDir,
        designerDir: null,
        logLevel: "silent",
        env: { ...io.env } as NodeJS.ProcessEnv,
      });
    }
    const client = new ServerClient(options.server ?? local!.url, options.token);
    const sessionId = options.sessionId ?? (await createSession(client, options.agentId, options.channel));
    const session = await getSession(client, sessionId);
    if (session.agentId !== options.agentId) {
      throw new UsageError(`Session ${sessionId} talks to "${session.agentId}", not "${options.agentId}".`);
    }
    io.stderr.write(
      `chat with ${session.agentId} (session ${sessionId}${local ? `, in-process on ${path.resolve(options.dataDir)}` : ` on ${client.baseUrl}`})\n${CHAT_HELP}`,
    );
    for (;;) {
      const line = (await prompt("you> ")).trim();
      if (line === "") continue;
      if (line === "/quit" || line === "/exit") return 0;
      if (line === "/help") {
        io.stdout.write(CHAT_HELP);
        continue;
      }
      if (line === "/tasks") {
        io.stdout.write(describeTasks(await getSession(client, sessionId)));
        continue;
      }
      const decision = /^\/(approve|reject)\b\s*(.*)$/.exec(line);
      if (decision) {
        await decide(client, sessionId, decision[1] as "approve" | "reject", decision[2] ?? "", options);
        continue;
      }
      if (line.startsWith("/")) {
        io.stdout.write(`Unknown command ${line.split(" ")[0]}.\n${CHAT_HELP}`);
        continue;
      }
      try {
        const { runId, turn } = await startTurn(client, sessionId, line);
        io.stderr.write(`turn ${turn} (run ${runId})\n`);
        await followRun({
          client,
          runId,
          afterSeq: 0,
          io,
          ...(options.token ? { token: options.token } : {}),
        });
        const after = await getSession(client, sessionId);
        if (after.pendingMerges.length > 0) io.stdout.write(describeTasks(after));
      } catch (error) {
        if (!(error instanceof ServerRequestError)) throw error;
        io.stdout.write(`${error.message}\n`);
      }
    }
  } finally {
    await local?.close();
  }
}

async function createSession(client: ServerClient, agentId: string, channel?: string): Promise<string> {
  const body = { agentId, ...(channel === undefined ? {} : { channel }) };
  return ((await client.request("POST", "/api/sessions", body)).json as { sessionId: string }).sessionId;
}

async function startTurn(client: ServerClient, sessionId: string, query: string) {
  const body: StartSessionTurnRequest = { query };
  const answer = await client.request("POST", `/api/sessions/${encodeURIComponent(sessionId)}/turns`, body);
  return StartSessionTurnResponse.parse(answer.json);
}

async function getSession(client: ServerClient, sessionId: string): Promise<SessionRecord> {
  return (await client.request("GET", `/api/sessions/${sessionId}`)).json as SessionRecord;
}

/** `/approve` and `/reject`: the last turn's pause first, else the first pending merge. */
async function decide(
  client: ServerClient,
  sessionId: string,
  decision: "approve" | "reject",
  note: string,
  options: ChatCommandOptions,
): Promise<void> {
  const { io } = options;
  const session = await getSession(client, sessionId);
  const last = session.turns.at(-1);
  if (last?.status === "paused") {
    const run = (await client.request("GET", `/api/runs/${last.runId}`)).json as RunRecord;
    if (run.pause) {
      await client.request("POST", `/api/runs/${run.id}/resume`, {
        resumeToken: run.pause.resumeToken,
        decision,
        ...(note ? { userInput: note } : {}),
      });
      await followRun({
        client,
        runId: run.id,
        afterSeq: run.lastSeq ?? 0,
        io,
        ...(options.token ? { token: options.token } : {}),
      });
      return;
    }
  }
  const merge = session.pendingMerges[0];
  if (!merge) {
    io.stdout.write("Nothing waits for a decision.\n");
    return;
  }
  await client.request("POST", `/api/sessions/${sessionId}/merges/${merge.mergeId}`, {
    decision,
    ...(note ? { note } : {}),
  });
  io.stdout.write(
    `${decision === "approve" ? "Applied" : "Rejected"} ${merge.name} (${merge.tasks.length} task result(s)).\n`,
  );
}

/** The session's tasks and what waits for a person, one line each. */
export function describeTasks(session: SessionRecord): string {
  const lines: string[] = [];
  if (session.tasks.length === 0) lines.push("No background tasks.");
  for (const task of session.tasks) {
    lines.push(
      `  ${task.taskId} ${task.name}: ${task.status}${task.groupId ? ` (group ${task.groupId})` : ""} — run ${task.runId}`,
    );
  }
  for (const merge of session.pendingMerges) {
    lines.push(`  waiting for you: ${merge.name} (${merge.tasks.length} result(s)) — /approve or /reject`);
  }
  return `${lines.join("\n")}\n`;
}
