import type { RunEvent } from "@waddle/protocol";
import { toTerminalValue } from "./terminal-text.js";

export interface PrinterOutput {
  write(text: string): void;
  /** A terminal: the progress line is redrawn in place and colours are used. */
  isTty: boolean;
}

const COLORS = {
  dim: "2",
  red: "31",
  green: "32",
  yellow: "33",
  blue: "34",
  magenta: "35",
  cyan: "36",
  bold: "1",
} as const;
type Color = keyof typeof COLORS;

/** A short, single-line preview of a JSON value. */
export function previewValue(value: unknown, max = 100): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Prints a run's events as readable lines, streams the answer as it arrives, and keeps a progress line
 * (step, events, elapsed time, what is running) at the bottom of a terminal.
 */
export class EventPrinter {
  private readonly startedAt = Date.now();
  private step = 0;
  private events = 0;
  private readonly running = new Map<string, string>();
  private streaming = false;
  /** Whether the answer of the current LLM reply was already shown as it streamed. */
  private answerShown = false;
  private progressShown = false;
  answer: string | undefined;

  constructor(private readonly out: PrinterOutput) {}

  private paint(color: Color, text: string): string {
    return this.out.isTty ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text;
  }

  private line(text: string): void {
    this.clearProgress();
    if (this.streaming) {
      this.out.write("\n");
      this.streaming = false;
    }
    this.out.write(`${text}\n`);
  }

  private clearProgress(): void {
    if (this.progressShown) this.out.write("\r\x1b[K");
    this.progressShown = false;
  }

  /** Redraws the progress line (terminals only). */
  private drawProgress(): void {
    if (!this.out.isTty || this.streaming) return;
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(1);
    const doing = [...this.running.values()].join(", ");
    this.clearProgress();
    this.out.write(
      this.paint(
        "dim",
        `[step ${this.step} · ${this.events} events · ${seconds}s${doing ? ` · running ${doing}` : ""}]`,
      ),
    );
    this.progressShown = true;
  }

  print(event: RunEvent): void {
    this.events += 1;
    this.step = Math.max(this.step, event.step);
    const text = this.format(toTerminalValue(event));
    if (text !== undefined) this.line(text);
    this.drawProgress();
  }

  /** Removes the progress line at the end. */
  finish(): void {
    this.clearProgress();
    if (this.streaming) this.out.write("\n");
    this.streaming = false;
  }

  private format(event: RunEvent): string | undefined {
    switch (event.type) {
      case "run_started": {
        const llm = event.data.llm;
        return (
          this.paint(
            "bold",
            `▶ ${event.data.agentId ?? "agent"}${event.data.agentVersion ? ` v${event.data.agentVersion}` : ""}`,
          ) +
          ` · ${llm.offline ? "offline model" : `${llm.provider}/${llm.model}`} · tools: ${event.data.tools.join(", ") || "none"}`
        );
      }
      case "step_start":
        this.answerShown = false;
        return this.paint(
          "dim",
          `─ step ${event.step}${event.data.source === "llm" ? "" : ` (${event.data.source})`}`,
        );
      case "action":
        if (event.data.next_node === "final_response") return undefined;
        return `  → ${this.paint("cyan", event.data.next_node)} ${previewValue(event.data.args)}${event.data.source === "auto_seq" ? this.paint("magenta", " [auto-seq]") : ""}`;
      case "tool_start":
        this.running.set(event.data.callId, event.data.tool);
        return undefined;
      case "tool_end":
        this.running.delete(event.data.callId);
        return `  ${this.paint("green", "✓")} ${event.data.tool} ${this.paint("dim", `${Math.round(event.data.durationMs)} ms`)} → ${previewValue(event.data.observation)}`;
      case "tool_error":
        this.running.delete(event.data.callId);
        return `  ${this.paint("red", "✗")} ${event.data.tool} ${event.data.failure.error_code}: ${event.data.failure.message}`;
      case "tool_progress": {
        const { progress, total, message } = event.data;
        const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
        return this.paint(
          "dim",
          `  … ${event.data.tool} ${amount}${message === undefined ? "" : ` ${message}`}`,
        );
      }
      case "tool_retry":
        return this.paint(
          "yellow",
          `  ↻ ${event.data.tool} retry ${event.data.attempt} in ${Math.round(event.data.delayMs)} ms (${event.data.error_code})`,
        );
      case "parallel_start":
        return `  ⇉ parallel: ${event.data.steps.map((step) => step.node).join(", ")}${event.data.join ? ` → join ${event.data.join.node}` : ""} (max ${event.data.maxParallel})`;
      case "parallel_end":
        return `  ⇇ parallel done: ${event.data.successCount} ok, ${event.data.failureCount} failed, join ${event.data.join.status}`;
      case "reasoning":
        // act and obs repeat the action and tool lines; plan and reflect add something.
        if (event.data.phase === "act" || event.data.phase === "obs") return undefined;
        return this.paint("dim", `  [${event.data.phase}] ${event.data.summary}`);
      case "todos_updated":
        return `  ☐ todos: ${event.data.todos.map((todo) => `${todo.status === "completed" ? "✓" : todo.status === "in_progress" ? "…" : "·"} ${todo.content}`).join(" | ")}`;
      case "repair_attempt":
        return this.paint(
          "yellow",
          `  ⚠ repair (${event.data.kind}) attempt ${event.data.attempt}: ${event.data.message}`,
        );
      case "action_salvaged":
        return this.paint(
          "yellow",
          `  ⚠ salvaged (${event.data.rule})${event.data.detail ? `: ${event.data.detail}` : ""}`,
        );
      case "constraint_violation":
        return this.paint(
          "yellow",
          `  ⚠ ${event.data.constraint} (${event.data.enforced}): ${event.data.message}`,
        );
      case "summary_compacted":
        return this.paint(
          "dim",
          `  ⤓ context compacted ${event.data.before_tokens} → ${event.data.after_tokens} tokens (${event.data.method})`,
        );
      case "auto_seq_executed":
        return this.paint("magenta", `  ⚡ auto-seq → ${event.data.tool_name}`);
      case "pause":
        return this.paint(
          "yellow",
          `⏸ paused (${event.data.reason}): ${previewValue(event.data.payload, 200)}`,
        );
      case "resumed":
        return this.paint("yellow", `⏵ resumed: ${event.data.decision}`);
      case "task_spawned":
        return `  ⧉ task ${event.data.name} (${event.data.mode}) spawned`;
      case "task_update":
        return `  ⧉ task ${event.data.taskId}: ${event.data.status}`;
      case "task_group_report":
        return `  ⧉ group ${event.data.name}: ${event.data.tasks.length} tasks reported`;
      case "llm_stream_chunk":
        if (event.data.channel !== "answer" || event.data.text === "") return undefined;
        this.clearProgress();
        if (!this.streaming) this.out.write(this.paint("bold", "Answer: "));
        this.streaming = true;
        this.answerShown = true;
        this.out.write(event.data.text);
        return undefined;
      case "run_finished": {
        const wasStreaming = this.answerShown;
        this.answer = event.data.payload.answer;
        const { metadata } = event.data;
        const summary = `■ ${event.data.reason} · ${metadata.steps} steps · ${metadata.llmCalls} LLM calls · ${(metadata.durationMs / 1000).toFixed(1)}s · $${metadata.usage.costUsd.toFixed(4)}`;
        this.finish();
        return wasStreaming
          ? this.paint("green", summary)
          : `${this.paint("bold", "Answer: ")}${event.data.payload.answer}\n${this.paint("green", summary)}`;
      }
      case "run_failed":
        return this.paint("red", `■ failed: ${event.data.error.code}: ${event.data.error.message}`);
      case "run_interrupted":
        return this.paint("red", `■ interrupted: ${event.data.message}`);
      default:
        return undefined;
    }
  }
}
