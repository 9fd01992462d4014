import { AgentRecord, Release, ReleaseChannelName, TestFailure } from "@waddle/protocol";
import { z } from "zod";
import { UsageError, type CliIo } from "./cli-io.js";
import { ServerClient, ServerRequestError } from "./server-client.js";

/** `details` of a 409 `tests_failed`, as the release gate sends it. */
const TestsFailedDetails = z.object({
  testRunId: z.string(),
  failures: z.array(
    z.object({
      caseId: z.string(),
      name: z.string().optional(),
      status: z.string(),
      failures: z.array(TestFailure),
    }),
  ),
});

/**
 * `waddle release <agent> --channel C`: points a channel at a version (default: the latest save) through the
 * server's test gate. Exit 0 released, 1 the gate refused (the failing cases printed) or the server failed,
 * 2 bad input (an unknown agent or version, a bad channel name, an invalid version).
 */
export async function releaseCommand(options: {
  agentId: string;
  channel: string | undefined;
  notes?: string;
  version?: string;
  server: string;
  token?: string;
  io: CliIo;
}): Promise<number> {
  const { io } = options;
  if (options.channel === undefined)
    throw new UsageError("release needs --channel, such as --channel production.");
  const channel = ReleaseChannelName.safeParse(options.channel);
  if (!channel.success) {
    throw new UsageError(`--channel ${JSON.stringify(options.channel)}: ${channel.error.issues[0]?.message}`);
  }
  const requested = options.version === undefined ? undefined : Number(options.version);
  if (requested !== undefined && !(Number.isInteger(requested) && requested > 0)) {
    throw new UsageError(
      `--version must be a version number such as 3, not ${JSON.stringify(options.version)}.`,
    );
  }
  const client = new ServerClient(options.server, options.token);
  const route = `/api/agents/${encodeURIComponent(options.agentId)}`;
  try {
    const version = requested ?? AgentRecord.parse((await client.request("GET", route)).json).version;
    const body = { version, channel: channel.data, ...(options.notes ? { notes: options.notes } : {}) };
    const release = Release.parse((await client.request("POST", `${route}/releases`, body)).json);
    const was = release.previousVersion === null ? "new channel" : `was v${release.previousVersion}`;
    io.stdout.write(
      `released ${release.agentId} v${release.version} to ${release.channel} (${was})` +
        `${release.testRunId ? `, tests passed in ${release.testRunId}` : ", no test suite"}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ServerRequestError)) throw error;
    if (error.body?.code === "tests_failed") return printTestsFailed(error, io);
    io.stderr.write(`waddle: ${error.message}\n`);
    return [400, 404, 422].includes(error.status) ? 2 : 1;
  }
}

function printTestsFailed(error: ServerRequestError, io: CliIo): number {
  io.stderr.write(`waddle: release refused: ${error.body?.message ?? error.message}\n`);
  const details = TestsFailedDetails.safeParse(error.body?.details);
  if (!details.success) return 1;
  for (const testCase of details.data.failures) {
    io.stdout.write(`✗ ${testCase.name ?? testCase.caseId} (${testCase.caseId}) ${testCase.status}\n`);
    for (const failure of testCase.failures) {
      io.stdout.write(`    ${failure.check}: ${failure.message ?? "failed"}\n`);
    }
  }
  io.stdout.write(`test run ${details.data.testRunId}\n`);
  return 1;
}
