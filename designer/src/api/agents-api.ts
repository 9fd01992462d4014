import {
  AgentRecord,
  AgentsListResponse,
  AgentVersionResponse,
  AgentVersionsResponse,
  CreateAgentResponse,
  ImportResponse,
  UpdateAgentResponse,
  ValidateResponse,
  type AgentSpec,
  type AgentSummary,
  type AgentVersionSummary,
  type ExportFormat,
} from "@waddle/protocol";
import { route, type ApiRequester } from "./api-requester.js";

/** `/api/agents`: saved agents, their versions, validation, import and export. */
export function createAgentsApi(http: ApiRequester) {
  return {
    async listAgents(): Promise<AgentSummary[]> {
      return (await http.json("GET", "/api/agents", AgentsListResponse)).agents;
    },

    async getAgent(id: string): Promise<AgentRecord> {
      return http.json("GET", route`/api/agents/${id}`, AgentRecord);
    },

    /** `allowInvalid`: a spec with errors is saved as a version marked invalid (runs refuse it). */
    async createAgent(
      spec: AgentSpec,
      options: { allowInvalid?: boolean } = {},
    ): Promise<CreateAgentResponse> {
      const query = options.allowInvalid ? "?allowInvalid=true" : "";
      return http.json("POST", `/api/agents${query}`, CreateAgentResponse, spec);
    },

    /** Saves a new version; a stale `baseVersion` throws ApiError `conflict` whose details parse as ConflictDetails. */
    async updateAgent(
      id: string,
      body: { spec: AgentSpec; baseVersion: number; allowInvalid?: boolean },
    ): Promise<UpdateAgentResponse> {
      return http.json("PUT", route`/api/agents/${id}`, UpdateAgentResponse, body);
    },

    async deleteAgent(id: string): Promise<void> {
      await http.request("DELETE", route`/api/agents/${id}`);
    },

    async listVersions(id: string): Promise<AgentVersionSummary[]> {
      return (await http.json("GET", route`/api/agents/${id}/versions`, AgentVersionsResponse)).versions;
    },

    async getVersion(id: string, version: number): Promise<AgentRecord> {
      return http.json("GET", route`/api/agents/${id}/versions/${version}`, AgentVersionResponse);
    },

    async validate(spec: unknown): Promise<ValidateResponse> {
      return http.json("POST", "/api/agents/validate", ValidateResponse, spec);
    },

    /** What only the server knows about a spec (allow-lists, secrets, keys, MCP servers, saved agents). */
    async serverCheck(spec: unknown): Promise<ValidateResponse> {
      return http.json("POST", "/api/agents/server-check", ValidateResponse, spec);
    },

    /** Imports a spec, a PenguiFlow `planning_hints` dict (bare or wrapped), or `{base, planning_hints}`. */
    async importAgent(body: unknown): Promise<ImportResponse> {
      return http.json("POST", "/api/agents/import", ImportResponse, body);
    },

    /** The saved agent as JSON text or as TypeScript source that builds the same planner. */
    async exportAgent(id: string, format: ExportFormat): Promise<string> {
      return (await http.request("GET", route`/api/agents/${id}/export?format=${format}`)).text();
    },

    /** An export as a file to download (zips for `ts-project` and `penguiflow`). */
    async downloadExport(id: string, format: ExportFormat): Promise<Blob> {
      return (await http.request("GET", route`/api/agents/${id}/export?format=${format}`)).blob();
    },
  };
}

export type AgentsApi = ReturnType<typeof createAgentsApi>;
