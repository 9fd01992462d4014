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
import { exportAgent } from "../agents/export-agent.js";
import { importAgent } from "../agents/import-agent.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { AgentIdParam, AgentVersionParams, parseRequest } from "./validate-request.js";

const FORMATS = ExportFormat.options.join(", ");
const ExportQuery = z.strictObject({ format: z.string().default("json") });

/** The export format asked for, or a 400 that lists the formats. */
function parseExportFormat(value: string): ExportFormat {
  const parsed = ExportFormat.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError(
    "validation_failed",
    `Unknown export format ${JSON.stringify(value)}: use one of ${FORMATS}.`,
    {
      formats: ExportFormat.options,
    },
  );
}

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
export function createAgentsRoutes(options: {
  store: WaddleStore;
  /** Module tools' files, for exports that import or copy them. */
  registry?: ToolRegistry;
}): Router {
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
    const format = parseExportFormat(parseRequest(ExportQuery, request.query, "query").format);
    const record = await store.getAgent(id);
    if (!record) throw notFound("Agent", id);
    const exported = await exportAgent({
      spec: record.spec,
      format,
      getAgent: async (agentId) => (await store.getAgent(agentId))?.spec,
      ...(options.registry ? { registry: options.registry } : {}),
    });
    // Zips download; text shows inline (the designer and the CLI read it).
    const disposition = typeof exported.body === "string" ? "inline" : "attachment";
    response.setHeader("content-disposition", `${disposition}; filename="${exported.filename}"`);
    response
      .type(exported.contentType)
      .send(typeof exported.body === "string" ? exported.body : Buffer.from(exported.body));
  });

  return router;
}
