import {
  SaveTestRequest,
  StartTestRunRequest,
  TestCaseId,
  TestSuite,
  type TestRunsListResponse,
  type TestSuite as Suite,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import type { TestRunService } from "../agent-tests/test-run-service.js";
import { notFound } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { AgentIdParam, parseRequest } from "./validate-request.js";

const TestRunIdParam = z.strictObject({
  id: z.string().regex(/^tr_[A-Za-z0-9_-]{1,80}$/, "must be a test run id such as tr_4f9c2a1b"),
});
const CaseParams = z.strictObject({ id: AgentIdParam.shape.id, caseId: TestCaseId });
const SuiteQuery = z.strictObject({ download: z.enum(["0", "1"]).optional() });
const ListQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) });

/**
 * Tests from runs: `/api/agents/:id/tests` (the suite, whole; `POST {fromRunId}` saves a run as a case),
 * `DELETE /api/agents/:id/tests/:caseId` (one case), `/api/agents/:id/test-runs` (start, list) and `/api/test-runs/:id` (get, cancel).
 */
export function createTestsRoutes(options: { store: WaddleStore; tests: TestRunService }): Router {
  const { store, tests } = options;
  const router = Router();

  const requireAgent = async (id: string) => {
    if (!(await store.getAgent(id))) throw notFound("Agent", id);
  };

  router.get("/agents/:id/tests", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const query = parseRequest(SuiteQuery, request.query, "query");
    await requireAgent(id);
    const suite: Suite = { version: 1, agentId: id, cases: (await store.tests.getSuite(id))?.cases ?? [] };
    // `?download=1`: the suite as the file to keep beside the spec in git.
    if (query.download === "1") response.attachment(`${id}.tests.json`);
    response.json(suite);
  });

  router.put("/agents/:id/tests", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(TestSuite, request.body, "body");
    const suite: Suite = { version: 1, agentId: id, cases: await tests.putSuite(id, body.cases) };
    response.json(suite);
  });

  router.post("/agents/:id/tests", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(SaveTestRequest, request.body, "body");
    const testCase = await tests.saveFromRun(id, body);
    response.status(201).json(testCase);
  });

  router.delete("/agents/:id/tests/:caseId", async (request, response) => {
    const { id, caseId } = parseRequest(CaseParams, request.params, "params");
    await tests.deleteCase(id, caseId);
    response.status(204).end();
  });

  router.post("/agents/:id/test-runs", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(StartTestRunRequest, request.body ?? {}, "body");
    const answer = await tests.start(id, body);
    response.status(202).location(`/api/test-runs/${answer.testRunId}`).json(answer);
  });

  router.get("/agents/:id/test-runs", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const query = parseRequest(ListQuery, request.query, "query");
    await requireAgent(id);
    const body: TestRunsListResponse = {
      testRuns: (await store.tests.listTestRuns(id, query.limit)).map(
        ({ cases: _cases, ...summary }) => summary,
      ),
    };
    response.json(body);
  });

  router.get("/test-runs/:id", async (request, response) => {
    const { id } = parseRequest(TestRunIdParam, request.params, "params");
    response.json(await tests.get(id));
  });

  router.post("/test-runs/:id/cancel", async (request, response) => {
    const { id } = parseRequest(TestRunIdParam, request.params, "params");
    response.json(await tests.cancel(id));
  });

  return router;
}
