import { filterByScope } from "../access/access-guard.js";
import {
  AgentSpec as AgentSpecSchema,
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
import { checkServerSettings } from "../agents/check-server-settings.js";
import { importAgent } from "../agents/import-agent.js";
import type { ServerSettingsView } from "../agents/server-settings-view.js";
import { createDraftRoutes } from "./draft-routes.js";
import { audit } from "../access/audit-trail.js";
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
const CreateQuery = z.strictObject({ allowInvalid: z.enum(["true", "false"]).optional() });
const DeleteQuery = z.strictObject({ force: z.enum(["true", "false"]).optional() });

const NO_SPEC_MESSAGE = "Send the agent spec as a JSON body.";

/**
 * A spec from a body, or a 422 `invalid_spec` whose details list every path-precise issue. With
 * `allowInvalid`, a spec whose structure is sound but whose cross references have errors is taken, marked
 * `invalid` (runs refuse it): the designer's "save anyway", so that work with mistakes is never lost.
 */
function requireValidSpec(body: unknown, allowInvalid = false): { spec: AgentSpec; invalid: boolean } {
  // Without a body the validator would report a required field named "undefined".
  if (body === undefined) throw new ApiError("validation_failed", NO_SPEC_MESSAGE);
  const result = validateAgentSpec(body);
  if (result.ok) return { spec: result.spec, invalid: false };
  if (allowInvalid) {
    const parsed = AgentSpecSchema.safeParse(body);
    if (parsed.success) return { spec: parsed.data, invalid: true };
  }
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

/**
 * `/api/agents`: CRUD with versions and optimistic concurrency, validate (with this server's settings when
 * `settings` is given), import, export, drafts.
 */
export function createAgentsRoutes(options: {
  store: WaddleStore;
  /** Module tools' files, for exports that import or copy them. */
  registry?: ToolRegistry;
  settings?: ServerSettingsView;
  /** Where the runtime a ts-project export ships is; server/dist/export-runtime when left out. */
  exportRuntimeDir?: string;
}): Router {
  const { store, settings } = options;
  const router = Router();

  router.get("/", async (_request, response) => {
    response.json({ agents: filterByScope(response, await store.listAgents(), (agent) => agent.id) });
  });

  router.post("/", async (request, response) => {
    const { allowInvalid } = parseRequest(CreateQuery, request.query, "query");
    const { spec, invalid } = requireValidSpec(request.body, allowInvalid === "true");
    const record = await store.createAgent({ spec, ...(invalid ? { invalid } : {}) });
    await audit(response, {
      action: "agent.created",
      target: { type: "agent", id: record.id },
      details: { version: record.version, ...(record.invalid ? { invalid: true } : {}) },
    });
    const body: CreateAgentResponse = {
      id: record.id,
      version: record.version,
      ...(record.invalid ? { invalid: true } : {}),
    };
    response.status(201).location(`/api/agents/${record.id}`).json(body);
  });

  router.post("/validate", async (request, response) => {
    if (request.body === undefined) throw new ApiError("validation_failed", NO_SPEC_MESSAGE);
    const result = validateAgentSpec(request.body);
    const server = result.ok && settings ? await checkServerSettings(result.spec, settings) : [];
    const issues = [...result.issues, ...server];
    const body: ValidateResponse = { ok: !issues.some((issue) => issue.severity === "error"), issues };
    response.json(body);
  });

  // What the designer cannot know by itself (allow-lists, secrets, keys, MCP servers, saved agents): the
  // checks that need this server, for a spec the page validates on its own. Debounced by the page.
  router.post("/server-check", async (request, response) => {
    if (request.body === undefined) throw new ApiError("validation_failed", NO_SPEC_MESSAGE);
    const parsed = AgentSpecSchema.safeParse(request.body);
    const issues = parsed.success && settings ? await checkServerSettings(parsed.data, settings) : [];
    const body: ValidateResponse = { ok: !issues.some((issue) => issue.severity === "error"), issues };
    response.json(body);
  });

  router.post("/import", async (request, response) => {
    const imported = importAgent(request.body);
    await audit(response, {
      action: "agent.imported",
      target: { type: "agent", id: imported.spec?.id ?? "(none)" },
      details: { ok: imported.spec !== null, issues: imported.issues.length },
    });
    response.json(imported);
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
    const { spec, invalid } = requireValidSpec(body.spec, body.allowInvalid === true);
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
      ...(invalid ? { invalid } : {}),
    });
    await audit(response, {
      action: "agent.saved",
      target: { type: "agent", id },
      details: {
        version: record.version,
        baseVersion: body.baseVersion,
        ...(body.message ? { message: body.message } : {}),
        ...(record.invalid ? { invalid: true } : {}),
      },
    });
    response.json({ id: record.id, version: record.version, ...(record.invalid ? { invalid: true } : {}) });
  });

  router.delete("/:id", async (request, response) => {
    const { id } = parseRequest(AgentIdParam, request.params, "params");
    const { force } = parseRequest(DeleteQuery, request.query, "query");
    const channels = await store.releases.listChannels(id);
    if (channels.length > 0 && force !== "true" && (await store.getAgent(id))) {
      throw new ApiError(
        "agent_has_releases",
        `"${id}" is released on ${channels.map((channel) => channel.name).join(", ")}: delete with ?force=true to stop serving it.`,
        { channels: channels.map((channel) => ({ name: channel.name, version: channel.version })) },
      );
    }
    if (!(await store.deleteAgent(id))) throw notFound("Agent", id);
    await store.releases.deleteAgent(id);
    await store.triggers.deleteAgent(id);
    await store.drafts.delete(id);
    await audit(response, { action: "agent.deleted", target: { type: "agent", id } });
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
      ...(options.exportRuntimeDir ? { runtimeDir: options.exportRuntimeDir } : {}),
    });
    // Zips download; text shows inline (the designer and the CLI read it).
    const disposition = typeof exported.body === "string" ? "inline" : "attachment";
    response.setHeader("content-disposition", `${disposition}; filename="${exported.filename}"`);
    response
      .type(exported.contentType)
      .send(typeof exported.body === "string" ? exported.body : Buffer.from(exported.body));
  });

  router.use("/:id/draft", createDraftRoutes({ store }));
  return router;
}
