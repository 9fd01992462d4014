// Module tools for the scale-out tests (loaded with WADDLE_TOOLS_DIR): each call appends a line to
// $WADDLE_TEST_CALL_LOG when it starts and when it ends, with the pid of the process that ran it.
import { appendFileSync } from "node:fs";
import { defineTool } from "@waddle/planner";
import { z } from "zod";

function record(tool: string, phase: "start" | "end"): void {
  const file = process.env.WADDLE_TEST_CALL_LOG;
  if (file) appendFileSync(file, `${JSON.stringify({ tool, phase, pid: process.pid, at: Date.now() })}\n`);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    });
  });

function makeTool(name: string, sideEffects: "read" | "external", msVariable: string) {
  return defineTool({
    name,
    desc: `A ${sideEffects} step that takes $${msVariable} ms (scale-out tests).`,
    args: z.object({ note: z.string().default(name) }),
    out: z.object({ done: z.string(), pid: z.number() }),
    sideEffects,
    run: async (_args, context) => {
      record(name, "start");
      await sleep(Number(process.env[msVariable] ?? 200), context.signal);
      record(name, "end");
      return { done: name, pid: process.pid };
    },
  });
}

export const stepOne = makeTool("step_one", "read", "WADDLE_TEST_STEP_MS");
export const stepTwo = makeTool("step_two", "read", "WADDLE_TEST_STEP_MS");
export const stepThree = makeTool("step_three", "read", "WADDLE_TEST_STEP_MS");
export const chargeCard = makeTool("charge_card", "external", "WADDLE_TEST_CHARGE_MS");
export const stepFour = makeTool("step_four", "read", "WADDLE_TEST_STEP_MS");
