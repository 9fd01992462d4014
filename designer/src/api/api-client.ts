import {
  ApiKeysResponse,
  CreateApiKeyResponse,
  type ApiKeySummary,
  type CreateApiKeyRequest,
  AgentDraft,
  AllowListResponse,
  CredentialInfo,
  CredentialsCheckResponse,
  CredentialsResponse,
  type PutAllowListRequest,
  type PutCredentialRequest,
  AgentRecord,
  AgentsListResponse,
  AgentVersionResponse,
  AgentVersionsResponse,
  ConflictDetails,
  CreateAgentResponse,
  CreateSessionResponse,
  ErrorBody,
  type ForkRunRequestInput,
  HealthResponse,
  ImportResponse,
  McpServersResponse,
  parseJson,
  RunEventsResponse,
  RunRecord,
  RunsListResponse,
  RunStatus,
  SessionEvent,
  SessionRecord,
  SessionsListResponse,
  SessionStatus,
  StartRunResponse,
  ToolsResponse,
  TestCase,
  TestRunRecord,
  TestRunsListResponse,
  TestSuite,
  type SaveTestRequest,
  type TestSuiteInput,
  type StartTestRunRequest,
  ToolTestResponse,
  type ToolTestRequest,
  UpdateAgentResponse,
  ValidateResponse,
  type AgentSpec,
  type AgentSummary,
  type AgentVersionSummary,
  type ExportFormat,
  type McpServerInfo,
  A2aCardResponse,
  type A2aCardSummary,
  type CreateSessionRequest,
  type MergeDecisionRequest,
  type ResumeRequest,
  type RunEvent,
  type SessionSummary,
  type StartRunRequest,
  type StartTurnRequest,
  type ToolInfo,
} from "@waddle/protocol";
import { z } from "zod";
import { ApiError } from "./api-error.js";

export interface ApiClientOptions {
  /** Prefix of every route; the designer is served on the API's origin, so "" by default. */
  baseUrl?: string;
  getToken: () => string | null;
  /** Called on a 401: resolve true once a new token is stored, to retry the request once. */
  onUnauthorized?: () => Promise<boolean>;
  fetch?: typeof fetch;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** `POST /api/runs/:id/cancel` answers the run's status once the cancel took effect. */
const CancelRunResponse = z.object({ runId: z.string(), status: RunStatus });
export type CancelRunResponse = z.infer<typeof CancelRunResponse>;

const SessionEventsResponse = z.object({ events: z.array(SessionEvent) });
/** `POST /api/sessions/:id/merges/:mergeId` answers 202 with the session's status after the decision. */
const MergeDecisionResponse = z.object({
  sessionId: z.string(),
  mergeId: z.string(),
  decision: z.string(),
  status: SessionStatus,
});
export type MergeDecisionResponse = z.infer<typeof MergeDecisionResponse>;

export interface ListRunsOptions {
  agentId?: string;
  /** Only runs in these statuses. */
  status?: RunStatus | readonly RunStatus[];
  limit?: number;
}

/**
 * The Waddle REST API. Every answer is checked against the protocol's zod schemas (a boundary); failures
 * throw `ApiError` with the server's code, or `invalid_response` / `network_error`.
 */
export class ApiClient {
  private readonly fetcher: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async health(): Promise<HealthResponse> {
    return this.json("GET", "/api/health", HealthResponse);
  }

  async listTools(): Promise<ToolInfo[]> {
    return (await this.json("GET", "/api/tools", ToolsResponse)).tools;
  }

  /** The server's MCP servers (`WADDLE_MCP_SERVERS`) with their status and tools; it connects them first. */
  async listMcpServers(): Promise<McpServerInfo[]> {
    return (await this.json("GET", "/api/mcp/servers", McpServersResponse)).servers;
  }

  /** A remote A2A agent's card, read by the server through its http allow-list (`POST /api/a2a/card`). */
  async readA2aCard(url: string): Promise<A2aCardSummary> {
    return (await this.json("POST", "/api/a2a/card", A2aCardResponse, { url })).card;
  }

  async listAgents(): Promise<AgentSummary[]> {
    return (await this.json("GET", "/api/agents", AgentsListResponse)).agents;
  }

  async getAgent(id: string): Promise<AgentRecord> {
    return this.json("GET", `/api/agents/${encodeURIComponent(id)}`, AgentRecord);
  }

  /** `allowInvalid`: a spec with errors is saved as a version marked invalid (runs refuse it). */
  async createAgent(spec: AgentSpec, options: { allowInvalid?: boolean } = {}): Promise<CreateAgentResponse> {
    const query = options.allowInvalid ? "?allowInvalid=true" : "";
    return this.json("POST", `/api/agents${query}`, CreateAgentResponse, spec);
  }

  /** Saves a new version; a stale `baseVersion` throws ApiError `conflict` whose details parse as ConflictDetails. */
  async updateAgent(
    id: string,
    body: { spec: AgentSpec; baseVersion: number; allowInvalid?: boolean },
  ): Promise<UpdateAgentResponse> {
    return this.json("PUT", `/api/agents/${encodeURIComponent(id)}`, UpdateAgentResponse, body);
  }

  async deleteAgent(id: string): Promise<void> {
    await this.request("DELETE", `/api/agents/${encodeURIComponent(id)}`);
  }

  async listVersions(id: string): Promise<AgentVersionSummary[]> {
    return (await this.json("GET", `/api/agents/${encodeURIComponent(id)}/versions`, AgentVersionsResponse))
      .versions;
  }

  async getVersion(id: string, version: number): Promise<AgentRecord> {
    return this.json(
      "GET",
      `/api/agents/${encodeURIComponent(id)}/versions/${version}`,
      AgentVersionResponse,
    );
  }

  async validate(spec: unknown): Promise<ValidateResponse> {
    return this.json("POST", "/api/agents/validate", ValidateResponse, spec);
  }

  /** Imports a spec, a PenguiFlow `planning_hints` dict (bare or wrapped), or `{base, planning_hints}`. */
  /** What only the server knows about a spec (allow-lists, secrets, keys, MCP servers, saved agents). */
  async serverCheck(spec: unknown): Promise<ValidateResponse> {
    return this.json("POST", "/api/agents/server-check", ValidateResponse, spec);
  }

  /** Calls one tool once through the server's executor (`POST /api/tools/test`). */
  async testTool(body: ToolTestRequest): Promise<ToolTestResponse> {
    return this.json("POST", "/api/tools/test", ToolTestResponse, body);
  }

  /** The agent's unsaved edits kept on the server; null when there are none. */
  async getDraft(id: string): Promise<AgentDraft | null> {
    try {
      return await this.json("GET", `/api/agents/${encodeURIComponent(id)}/draft`, AgentDraft);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }

  async putDraft(id: string, draft: { baseVersion: number | null; spec: unknown }): Promise<void> {
    await this.json("PUT", `/api/agents/${encodeURIComponent(id)}/draft`, AgentDraft, draft);
  }

  async deleteDraft(id: string): Promise<void> {
    await this.request("DELETE", `/api/agents/${encodeURIComponent(id)}/draft`);
  }

  async importAgent(body: unknown): Promise<ImportResponse> {
    return this.json("POST", "/api/agents/import", ImportResponse, body);
  }

  /** The saved agent as JSON text or as TypeScript source that builds the same planner. */
  async exportAgent(id: string, format: ExportFormat): Promise<string> {
    const response = await this.request(
      "GET",
      `/api/agents/${encodeURIComponent(id)}/export?format=${format}`,
    );
    return response.text();
  }

  /** An export as a file to download (zips for `ts-project` and `penguiflow`). */
  async downloadExport(id: string, format: ExportFormat): Promise<Blob> {
    const response = await this.request(
      "GET",
      `/api/agents/${encodeURIComponent(id)}/export?format=${format}`,
    );
    return response.blob();
  }

  /** Starts a run of the agent's saved version (or `agentVersion`); 202 with its id. */
  async startRun(body: StartRunRequest): Promise<StartRunResponse> {
    return this.json("POST", "/api/runs", StartRunResponse, body);
  }

  /** Runs, newest first, of one agent and/or in some statuses. */
  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const query = new URLSearchParams();
    if (options.agentId !== undefined) query.set("agentId", options.agentId);
    if (options.status !== undefined) {
      const statuses: readonly RunStatus[] =
        typeof options.status === "string" ? [options.status] : options.status;
      if (statuses.length > 0) query.set("status", statuses.join(","));
    }
    if (options.limit !== undefined) query.set("limit", String(options.limit));
    const search = query.toString();
    return (await this.json("GET", `/api/runs${search ? `?${search}` : ""}`, RunsListResponse)).runs;
  }

  async getRun(id: string): Promise<RunRecord> {
    return this.json("GET", `/api/runs/${encodeURIComponent(id)}`, RunRecord);
  }

  /** The run's stored events with `seq > after`, in order (at most `limit` when given). */
  async getRunEvents(id: string, after = 0, limit?: number): Promise<RunEvent[]> {
    const query = `after=${after}${limit === undefined ? "" : `&limit=${limit}`}`;
    return (await this.json("GET", `/api/runs/${encodeURIComponent(id)}/events?${query}`, RunEventsResponse))
      .events;
  }

  /** Cancels a queued, running or paused run; an ended run throws ApiError `invalid_state` (409). */
  async cancelRun(id: string): Promise<CancelRunResponse> {
    return this.json("POST", `/api/runs/${encodeURIComponent(id)}/cancel`, CancelRunResponse);
  }

  /**
   * Answers a paused run. A pause already answered (by another page, say) or a run no longer paused throws
   * ApiError with status 409 whose details tell the run's status.
   */
  /** Forks a run from a step (`POST /api/runs/:id/fork`): the new run's id. */
  async forkRun(id: string, body: ForkRunRequestInput): Promise<{ runId: string }> {
    return this.json("POST", `/api/runs/${encodeURIComponent(id)}/fork`, StartRunResponse, body);
  }

  async resumeRun(id: string, body: ResumeRequest): Promise<{ runId: string }> {
    return this.json("POST", `/api/runs/${encodeURIComponent(id)}/resume`, StartRunResponse, body);
  }

  /** Opens a session (a chat) with the agent, its version pinned now unless `agentVersion` names one. */
  async createSession(body: CreateSessionRequest): Promise<CreateSessionResponse> {
    return this.json("POST", "/api/sessions", CreateSessionResponse, body);
  }

  /** Sessions, newest activity first. */
  async listSessions(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    const query = new URLSearchParams();
    if (options.agentId !== undefined) query.set("agentId", options.agentId);
    if (options.limit !== undefined) query.set("limit", String(options.limit));
    const search = query.toString();
    return (await this.json("GET", `/api/sessions${search ? `?${search}` : ""}`, SessionsListResponse))
      .sessions;
  }

  /** The session record: the fold of its log (turns, tasks, pending merges, usage). */
  async getSession(id: string): Promise<SessionRecord> {
    return this.json("GET", `/api/sessions/${encodeURIComponent(id)}`, SessionRecord);
  }

  /** Closes the session: its tasks are cancelled, its runs kept. */
  async closeSession(id: string): Promise<SessionRecord> {
    return this.json("DELETE", `/api/sessions/${encodeURIComponent(id)}`, SessionRecord);
  }

  /** The session's own log after `after`, in `seq` order. */
  async getSessionEvents(id: string, after = 0): Promise<SessionEvent[]> {
    return (
      await this.json(
        "GET",
        `/api/sessions/${encodeURIComponent(id)}/events?after=${after}`,
        SessionEventsResponse,
      )
    ).events;
  }

  /**
   * Starts the session's next turn (a run). While a turn runs or waits, or once the session is closed, it
   * throws ApiError 409 whose `details.reason` is `turn_in_progress` or `session_closed`.
   */
  async startTurn(body: StartTurnRequest): Promise<StartRunResponse> {
    return this.json("POST", "/api/runs", StartRunResponse, body);
  }

  /** Applies or rejects a pending merge; a merge already decided throws 409 `already_answered`. */
  async decideMerge(
    sessionId: string,
    mergeId: string,
    body: MergeDecisionRequest,
  ): Promise<MergeDecisionResponse> {
    return this.json(
      "POST",
      `/api/sessions/${encodeURIComponent(sessionId)}/merges/${encodeURIComponent(mergeId)}`,
      MergeDecisionResponse,
      body,
    );
  }

  /** Every credential (the environment's read-only ones too); never a value. */
  async listCredentials(): Promise<CredentialInfo[]> {
    return (await this.json("GET", "/api/credentials", CredentialsResponse)).credentials;
  }

  /** Stores or replaces a credential; a bad name or a value over 16 KB throws ApiError (400). */
  async putCredential(name: string, body: PutCredentialRequest): Promise<CredentialInfo> {
    return this.json("PUT", `/api/credentials/${encodeURIComponent(name)}`, CredentialInfo, body);
  }

  async deleteCredential(name: string): Promise<void> {
    await this.request("DELETE", `/api/credentials/${encodeURIComponent(name)}`);
  }

  /** What Run would meet for this spec on this server: its model's key and endpoint, http hosts. */
  async checkCredentials(spec: AgentSpec): Promise<CredentialsCheckResponse> {
    return this.json("POST", "/api/credentials/check", CredentialsCheckResponse, { spec });
  }

  /** The agent's test suite (`GET /api/agents/:id/tests`). */
  async getTestSuite(agentId: string): Promise<TestSuite> {
    return this.json("GET", `/api/agents/${encodeURIComponent(agentId)}/tests`, TestSuite);
  }

  /** Replaces the agent's whole suite; a case that does not fit is a 400 naming its JSON path. */
  async putTestSuite(agentId: string, body: TestSuiteInput): Promise<TestSuite> {
    return this.json("PUT", `/api/agents/${encodeURIComponent(agentId)}/tests`, TestSuite, body);
  }

  /** Saves an ended run of the agent as a new case at the end of its suite. */
  async saveRunAsTest(agentId: string, body: SaveTestRequest): Promise<TestCase> {
    return this.json("POST", `/api/agents/${encodeURIComponent(agentId)}/tests`, TestCase, body);
  }

  async deleteTestCase(agentId: string, caseId: string): Promise<void> {
    await this.request(
      "DELETE",
      `/api/agents/${encodeURIComponent(agentId)}/tests/${encodeURIComponent(caseId)}`,
    );
  }

  /** Starts a test run (all cases, or `caseIds`) on the latest or given version; answers at once. */
  async startTestRun(agentId: string, body: StartTestRunRequest): Promise<{ testRunId: string }> {
    return this.json(
      "POST",
      `/api/agents/${encodeURIComponent(agentId)}/test-runs`,
      z.object({ testRunId: z.string() }),
      body,
    );
  }

  /** The agent's test runs, newest first, without their cases. */
  async listTestRuns(agentId: string): Promise<TestRunsListResponse["testRuns"]> {
    const answer = await this.json(
      "GET",
      `/api/agents/${encodeURIComponent(agentId)}/test-runs`,
      TestRunsListResponse,
    );
    return answer.testRuns;
  }

  async getTestRun(id: string): Promise<TestRunRecord> {
    return this.json("GET", `/api/test-runs/${encodeURIComponent(id)}`, TestRunRecord);
  }

  async getAllowList(): Promise<AllowListResponse> {
    return this.json("GET", "/api/allowlist", AllowListResponse);
  }

  /** Replaces the stored allow-list entries; a bad entry throws ApiError (400) saying why. */
  async putAllowList(body: PutAllowListRequest): Promise<AllowListResponse> {
    return this.json("PUT", "/api/allowlist", AllowListResponse, body);
  }

  /** The API keys (admins only), never their secrets. */
  async listKeys(): Promise<ApiKeySummary[]> {
    return (await this.json("GET", "/api/keys", ApiKeysResponse)).keys;
  }

  /** Creates a key; the answer's `key` is the only time the secret is sent. */
  async createKey(body: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    return this.json("POST", "/api/keys", CreateApiKeyResponse, body);
  }

  async revokeKey(id: string): Promise<void> {
    await this.request("DELETE", `/api/keys/${encodeURIComponent(id)}`);
  }

  private async json<T>(method: Method, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const response = await this.request(method, path, body);
    const payload = await this.readJson(response);
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiError(
        "invalid_response",
        `The server's answer to ${method} ${path} has an unexpected shape: ${parsed.error.issues[0]?.message ?? "unknown"}.`,
        response.status,
        parsed.error.issues,
      );
    }
    return parsed.data;
  }

  private async request(method: Method, path: string, body?: unknown, retried = false): Promise<Response> {
    const headers: Record<string, string> = { accept: "application/json" };
    const token = this.options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await this.fetcher(`${this.options.baseUrl ?? ""}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new ApiError(
        "network_error",
        `Cannot reach the Waddle server (${(error as Error).message}). Is it running?`,
        0,
      );
    }
    if (response.ok) return response;
    if (
      response.status === 401 &&
      !retried &&
      this.options.onUnauthorized &&
      (await this.options.onUnauthorized())
    ) {
      return this.request(method, path, body, true);
    }
    throw await this.toError(response);
  }

  private async toError(response: Response): Promise<ApiError> {
    const payload = await this.readJson(response).catch(() => undefined);
    const parsed = ErrorBody.safeParse(payload);
    if (!parsed.success)
      return new ApiError(
        "internal",
        `The server answered ${response.status} ${response.statusText}.`,
        response.status,
      );
    const { code, message, details } = parsed.data;
    if (code === "conflict") {
      const conflict = ConflictDetails.safeParse(details);
      return new ApiError(code, message, response.status, conflict.success ? conflict.data : details);
    }
    return new ApiError(code, message, response.status, details);
  }

  private async readJson(response: Response): Promise<unknown> {
    const text = await response.text();
    if (text === "") return undefined;
    const parsed = parseJson(text);
    if (parsed.ok) return parsed.value;
    throw new ApiError(
      "invalid_response",
      `The server sent something that is not JSON (status ${response.status}).`,
      response.status,
    );
  }
}
