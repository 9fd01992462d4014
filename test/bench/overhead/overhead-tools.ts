import { z } from "zod";

/** One of the five no-op tools every contender runs: a name, a description, zod args, and a result. */
export interface NoopTool {
  name: string;
  description: string;
  args: z.ZodObject;
  run(args: Record<string, unknown>): { ok: true; tool: string; fields: number };
}

const SearchDocs = z.object({ query: z.string().min(1), limit: z.int().min(1).max(50) });
const FetchRecord = z.object({ id: z.string().regex(/^rec_\d+$/), fields: z.array(z.string()).max(10) });
const ComputeTotal = z.object({ values: z.array(z.number()).max(20), currency: z.enum(["EUR", "USD"]) });
const LookupUser = z.object({ email: z.string().min(3), includeHistory: z.boolean() });
const LogNote = z.object({ note: z.string().max(200), level: z.enum(["info", "warn"]) });

function noop(name: string, description: string, args: z.ZodObject): NoopTool {
  return {
    name,
    description,
    args,
    run: (input) => ({ ok: true, tool: name, fields: Object.keys(input).length }),
  };
}

/** The five tools: instant, side-effect free, with the kind of zod args a real tool has. */
export const NOOP_TOOLS: readonly NoopTool[] = [
  noop("search_docs", "Search the document index.", SearchDocs),
  noop("fetch_record", "Fetch one record by id.", FetchRecord),
  noop("compute_total", "Add up amounts in one currency.", ComputeTotal),
  noop("lookup_user", "Look a user up by email.", LookupUser),
  noop("log_note", "Write a note to the log.", LogNote),
];

/** One scripted tool call. */
export interface ScriptedStep {
  tool: string;
  args: Record<string, unknown>;
}

/** The same trajectory for every contender: `steps` tool calls cycling through the five tools. */
export function createTrajectory(steps: number): ScriptedStep[] {
  const trajectory: ScriptedStep[] = [];
  for (let index = 0; index < steps; index += 1) trajectory.push(getStep(index));
  return trajectory;
}

function getStep(index: number): ScriptedStep {
  switch (index % 5) {
    case 0:
      return { tool: "search_docs", args: { query: `renewal terms ${index}`, limit: 5 } };
    case 1:
      return { tool: "fetch_record", args: { id: `rec_${index}`, fields: ["title", "owner"] } };
    case 2:
      return { tool: "compute_total", args: { values: [12.5, 7, index], currency: "EUR" } };
    case 3:
      return { tool: "lookup_user", args: { email: `user${index}@example.com`, includeHistory: false } };
    default:
      return { tool: "log_note", args: { note: `step ${index} done`, level: "info" } };
  }
}

/** The final answer of every trajectory. */
export const FINAL_ANSWER = "All steps are done.";
