import {
  ExportFormat,
  UpdateAgentRequest,
  validateAgentSpec,
  type AgentSpec,
  type AgentVersionsResponse,
  type CreateAgentResponse,
  type ValidateResponse,
} from "@waddle/protocol";
import { Router } from "express";
import { z } from "zod";
import { ApiError, notFound } from "../shared/api-error.js";
import { exportAgentTypeScript } from "../agents/export-agent-typescript.js";
import { importAgent } from "../agents/import-agent.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { AgentIdParam, AgentVersionParams, parseRequest } from "./validate-request.js";

const ExportQuery = z.strictObject({ format: ExportFormat.default("json") });

const NO_SPEC_MESSAGE = "Send the agent spec as a JSON body.";

/** A spec from a body, or a 422 `invalid_spec` whose details list every path-precise issue. */
function requireValidSpec(body: unknown): AgentSpec {
  // Without a body the validator would report a required field named "undefined".
  if (body === undefined) throw new ApiError("validation_failed", NO_SPEC_MESSAGE);
  const result = validateAgentSpec(body);
  if (result.ok) return result.spec;
  const errors = result.issues.filter((issue) => issue.severity === "error");
  const first = errors[0];
  throw new ApiError(
    "invalid_spec",
    first
      ? `The agent spec is invalid: ${first.path}: ${first.message}${errors.length > 1 ? ` (+${errors.length - 1} more)` : ""}`
      : "The agent spec is invalid.",
    { issues: result.issues },
  );
}

/** `/api/agents`: CRUD with versions and optimistic concurrency, validate, import, export. */
export function createAgentsRoutes(options: { store: WaddleStore }): Router {
  const { store } = options;
  const router = Router();

  router.get("/", async (_request, response) => {
    response.json({ agents: await store.listAgents() });
  });

  router.post("/", async (request, response) => {
    const spec = requireValidSpec(request.body);
    const record = await store.createAgent({ spec });
    const body: CreateAgentResponse = { id: record.id, version: record.version };
    response.status(201).location(`/api/agents/${record.id}`).json(body);
  });

  router.post("/validate", (request, response) => {
    if (request.body === undefined) throw new ApiError("validation_failed", NO_SPEC_MESSAGE);
    const result = validateAgentSpec(request.body);
    const body: ValidateResponse = { ok: result.ok, issues: result.issues };
    response.json(body);
  });

  router.post("/import", (request, response) => {
    response.json(importAgent(request.body));
  });

  router.get("/:id", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const record = await store.getAgent(id);
    if (!record) throw notFound("Agent", id);
    response.json(record);
  });

  router.put("/:id", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const body = parseRequest(UpdateAgentRequest, request.body, "body");
    const spec = requireValidSpec(body.spec);
    if (spec.id !== id) {
      throw new ApiError(
        "validation_failed",
        `spec.id is "${spec.id}" but the URL names "${id}": they must match.`,
        {
          issues: [{ path: "$.spec.id", message: "must equal the agent id in the URL" }],
        },
      );
    }
    const record = await store.updateAgent({
      id,
      spec,
      baseVersion: body.baseVersion,
      ...(body.message ? { message: body.message } : {}),
    });
    response.json({ id: record.id, version: record.version });
  });

  router.delete("/:id", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    if (!(await store.deleteAgent(id))) throw notFound("Agent", id);
    response.status(204).end();
  });

  router.get("/:id/versions", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const versions = await store.listAgentVersions(id);
    if (!versions) throw notFound("Agent", id);
    const body: AgentVersionsResponse = { versions };
    response.json(body);
  });

  router.get("/:id/versions/:version", async (request, response) => {
    const { id, version } = parseRequest(AgentVersionParams, request.params, "params");
    const record = await store.getAgentVersion(id, version);
    if (!record) throw new ApiError("not_found", `Agent "${id}" has no version ${version}.`, { id, version });
    response.json(record);
  });

  router.get("/:id/export", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const { format } = parseRequest(ExportQuery, request.query, "query");
    const record = await store.getAgent(id);
    if (!record) throw notFound("Agent", id);
    if (format === "json") {
      response.setHeader("content-disposition", `inline; filename="${id}.json"`);
      // Indented: this is a file people read, diff and commit.
      response.type("application/json").send(`${JSON.stringify(record.spec, null, 2)}\n`);
      return;
    }
    response.setHeader("content-disposition", `inline; filename="${id}.ts"`);
    response.type("text/plain; charset=utf-8").send(exportAgentTypeScript(record.spec));
  });

  return router;
}
