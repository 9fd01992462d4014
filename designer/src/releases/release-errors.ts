import { Channel, TestFailure, TestCaseStatus } from "@waddle/protocol";
import { z } from "zod";

/** A case that kept a release out, as `409 tests_failed` lists it in `details.failures`. */
export const GateFailure = z.object({
  caseId: z.string(),
  name: z.string().optional(),
  runId: z.string().nullable(),
  status: TestCaseStatus,
  failures: z.array(TestFailure),
});
export type GateFailure = z.infer<typeof GateFailure>;

/** `details` of `409 tests_failed`: the gate's test run and its failing cases. */
export const TestsFailedDetails = z.object({
  testRunId: z.string(),
  status: z.string().optional(),
  failures: z.array(GateFailure),
});
export type TestsFailedDetails = z.infer<typeof TestsFailedDetails>;

/** `details` of `409 channel_moved`: the channel as it now is (null: gone). */
export const ChannelMovedDetails = z.object({ channel: Channel.nullable() });

/** Why a release or rollback was refused, read from the API error it threw. */
export type ReleaseRefusal =
  | { kind: "tests_failed"; message: string; details: TestsFailedDetails }
  | { kind: "channel_moved"; message: string; version: number | null }
  | { kind: "no_previous_release"; message: string }
  | { kind: "other"; message: string };

/** Reads a refusal from anything thrown (an `ApiError` with a code and details, or not). */
export function getReleaseRefusal(error: unknown): ReleaseRefusal {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  const details =
    typeof error === "object" && error !== null && "details" in error ? error.details : undefined;
  if (code === "tests_failed") {
    const parsed = TestsFailedDetails.safeParse(details);
    if (parsed.success) return { kind: "tests_failed", message, details: parsed.data };
  }
  if (code === "channel_moved") {
    const parsed = ChannelMovedDetails.safeParse(details);
    return {
      kind: "channel_moved",
      message,
      version: parsed.success ? (parsed.data.channel?.version ?? null) : null,
    };
  }
  if (code === "no_previous_release") return { kind: "no_previous_release", message };
  return { kind: "other", message };
}
