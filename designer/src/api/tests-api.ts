import {
  TestCase,
  TestRunRecord,
  TestRunsListResponse,
  TestSuite,
  type SaveTestRequest,
  type StartTestRunRequest,
  type TestSuiteInput,
} from "@waddle/protocol";
import { z } from "zod";
import { route, type ApiRequester } from "./api-requester.js";

const StartTestRunResponse = z.object({ testRunId: z.string() });

/** `/api/agents/:id/tests`, `/api/agents/:id/test-runs` and `/api/test-runs`: an agent's test suite and its runs. */
export function createTestsApi(http: ApiRequester) {
  return {
    /** The agent's test suite (`GET /api/agents/:id/tests`). */
    async getTestSuite(agentId: string): Promise<TestSuite> {
      return http.json("GET", route`/api/agents/${agentId}/tests`, TestSuite);
    },

    /** Replaces the agent's whole suite; a case that does not fit is a 400 naming its JSON path. */
    async putTestSuite(agentId: string, body: TestSuiteInput): Promise<TestSuite> {
      return http.json("PUT", route`/api/agents/${agentId}/tests`, TestSuite, body);
    },

    /** Saves an ended run of the agent as a new case at the end of its suite. */
    async saveRunAsTest(agentId: string, body: SaveTestRequest): Promise<TestCase> {
      return http.json("POST", route`/api/agents/${agentId}/tests`, TestCase, body);
    },

    async deleteTestCase(agentId: string, caseId: string): Promise<void> {
      await http.request("DELETE", route`/api/agents/${agentId}/tests/${caseId}`);
    },

    /** Starts a test run (all cases, or `caseIds`) on the latest or given version; answers at once. */
    async startTestRun(agentId: string, body: StartTestRunRequest): Promise<{ testRunId: string }> {
      return http.json("POST", route`/api/agents/${agentId}/test-runs`, StartTestRunResponse, body);
    },

    /** The agent's test runs, newest first, without their cases. */
    async listTestRuns(agentId: string): Promise<TestRunsListResponse["testRuns"]> {
      return (await http.json("GET", route`/api/agents/${agentId}/test-runs`, TestRunsListResponse)).testRuns;
    },

    async getTestRun(id: string): Promise<TestRunRecord> {
      return http.json("GET", route`/api/test-runs/${id}`, TestRunRecord);
    },
  };
}

export type TestsApi = ReturnType<typeof createTestsApi>;
