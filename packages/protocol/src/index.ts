export {
  AgentImpl,
  AgentSpec,
  CandidateLlm,
  Edge,
  EdgeKind,
  EMPTY_OBJECT_SCHEMA,
  GroupJoin,
  HttpImpl,
  JsonSchema,
  Layout,
  LlmConfig,
  LlmImpl,
  LlmPrice,
  MCP_TEXT_RESULT_SCHEMA,
  A2aImpl,
  A2A_RESULT_SCHEMA,
  McpImpl,
  MockImpl,
  ModuleImpl,
  ParallelGroup,
  PlannerOptions,
  Position,
  ReasoningEffort,
  ResponseFormat,
  RetryPolicy,
  TasksOptions,
  ToolImpl,
  ToolSpec,
} from "./agent-spec.js";
export type {
  AgentSpecInput,
  LlmConfigInput,
  PlannerOptionsInput,
  ToolImplKind,
  ToolSpecInput,
} from "./agent-spec.js";
export {
  AgentRecord,
  AgentSummary,
  AgentsListResponse,
  AgentVersionResponse,
  AgentVersionsResponse,
  AgentVersionSummary,
  API_ERROR_CODES,
  ApiErrorCode,
  ConflictDetails,
  CreateAgentResponse,
  ErrorBody,
  ExportFormat,
  HealthResponse,
  ImportResponse,
  ListRunsQuery,
  PendingPause,
  ResumeConflictDetails,
  ResumeConflictReason,
  ResumeRequest,
  RunDecisions,
  RunEventsResponse,
  RunRecord,
  RUNS_LIST_DEFAULT_LIMIT,
  RUNS_LIST_MAX_LIMIT,
  RunsListResponse,
  RunStatus,
  RunOrigin,
  StartRunRequest,
  StartTurnRequest,
  StartRunResponse,
  TERMINAL_RUN_STATUSES,
  UpdateAgentRequest,
  UpdateAgentResponse,
  ValidateResponse,
} from "./api.js";
export {
  A2aCardResponse,
  A2aCardSummary,
  McpServerInfo,
  McpServersResponse,
  McpToolInfo,
  ToolInfo,
  ToolsResponse,
} from "./tools-api.js";
export { checkSpecReferences } from "./check-spec-references.js";
export type { SourceIndices } from "./check-spec-references.js";
export { getFieldBounds, getNumberBounds } from "./get-field-bounds.js";
export type { NumberBounds } from "./get-field-bounds.js";
export { getFieldDefaults } from "./get-field-defaults.js";
export { AGENT_SPEC_SCHEMA_ID, agentSpecJsonSchema } from "./json-schema.js";
export { formatJsonPath, parseJsonPath } from "./json-path.js";
export { FORBIDDEN_JSON_KEYS, parseJson, protoSafeReviver } from "./parse-json.js";
export type { ParseJsonOptions, ParseResult } from "./parse-json.js";
export {
  describeInjectSource,
  getDefaultJoinInject,
  getJoinInjectFit,
  getUnsuppliedJoinArgs,
  INJECT_SOURCE_TYPES,
  isJoinInjectFit,
} from "./join-inject-fit.js";
export type { JoinInjectFit } from "./join-inject-fit.js";
export {
  CredentialName,
  CREDENTIAL_NAME_PATTERN,
  EnvName,
  ENV_NAME_PATTERN,
  INJECT_SOURCES,
  isInjectSource,
  isOpcode,
  MCP_SERVER_NAME_PATTERN,
  MCP_TOOL_NAME_PATTERN,
  McpServerName,
  McpToolName,
  OPCODES,
  READ_ONLY_SIDE_EFFECTS,
  RESERVED_TOOL_NAMES,
  SIDE_EFFECTS,
  Slug,
  SLUG_PATTERN,
  ToolName,
  TOOL_NAME_PATTERN,
} from "./names.js";
export type { InjectSource, Opcode, SideEffect } from "./names.js";
export {
  ContextCapsule,
  FailedJoin,
  FinalPayload,
  FinalResponseArgs,
  FinishReason,
  GroupReport,
  MergeStrategy,
  ParallelArgs,
  ParallelJoin,
  ParallelStep,
  PauseReason,
  PlannerAction,
  PlannerFinishResult,
  PlannerPauseResult,
  PlannerResult,
  ResumeDecision,
  RunMetadata,
  TaskSubagentArgs,
  TaskToolArgs,
  ToolFailure,
  Usage,
} from "./planner-action.js";
export {
  BudgetHints,
  isPlanningHintsLike,
  normalizePlanningHints,
  PenguiFlowHintsInput,
  PlanningHints,
} from "./planning-hints.js";
export type { PlanningHintsInput } from "./planning-hints.js";
export { FORK_EDIT_KINDS, ForkEdit, ForkOf, ForkReuse, ForkRunRequest } from "./fork.js";
export type { ForkEditKind, ForkRunRequestInput } from "./fork.js";
export { getPathValue, getTemplatePaths, renderTemplate } from "./render-template.js";
export type { TemplateScope } from "./render-template.js";
export { describeZodIssue, getFieldLabel } from "./describe-zod-issue.js";
export {
  ActionSource,
  getResumeNote,
  Preview,
  RESUME_NOTE_MAX_CHARS,
  RUN_EVENT_TYPES,
  RunEvent,
  TaskStatus,
  TERMINAL_EVENT_TYPES,
} from "./run-event.js";
export type { RunEventData, RunEventOf, RunEventType } from "./run-event.js";
export { STUCK_DEFAULTS, StuckAction, StuckOptions, StuckPattern } from "./stuck.js";
export type { StuckOptionsInput } from "./stuck.js";
export {
  GUARD_CHECK_KINDS,
  GUARD_TIMEOUT_MS,
  Guard,
  GuardAction,
  GuardApplied,
  GuardCheck,
  GuardExpect,
  GuardFinding,
  GuardName,
  GuardSampleRequest,
  GuardSampleResult,
  GuardStage,
  GuardVerdict,
  PII_TYPES,
  PiiType,
  SCANNING_CHECK_KINDS,
} from "./guards.js";
export type { GuardCheckKind, GuardInput } from "./guards.js";
export {
  addLlmCallUsage,
  applyRunSummary,
  createRunSummary,
  getFinishedStatus,
  getRunFigures,
  getRunTokens,
  getStepsAfter,
} from "./run-summary.js";
export type { RunSummary } from "./run-summary.js";
export {
  applySessionEvent,
  applySessionEvents,
  createSessionRecord,
  getSessionStatus,
  getTitleFromQuery,
  SESSION_TITLE_FROM_QUERY_CHARS,
  TERMINAL_TASK_STATUSES,
} from "./apply-session-event.js";
export {
  CreateSessionRequest,
  CreateSessionResponse,
  ListSessionsQuery,
  MergeDecisionRequest,
  MergeTask,
  PendingMerge,
  SESSION_TITLE_MAX,
  SessionDecidedMerge,
  SessionRecord,
  SessionsListResponse,
  SessionStatus,
  SessionSummary,
  SessionMergedResult,
  SessionTask,
  SessionTaskGroup,
  SessionTaskJob,
  SessionTaskStatus,
  SessionTurn,
  StartSessionTurnRequest,
  StartSessionTurnResponse,
} from "./session.js";
export { SessionEvent } from "./session-event.js";
export type { NewSessionEvent, SessionEventOf, SessionEventType } from "./session-event.js";
export {
  RunEventsMessage,
  RunStatusMessage,
  RunUpdatedMessage,
  SessionUpdatedMessage,
  SubscribeSessionAck,
  SubscribeSessionMessage,
  UnsubscribeSessionMessage,
  SubscribeAck,
  SubscribeMessage,
  UnsubscribeMessage,
  UnwatchAgentMessage,
  WatchAgentAck,
  WatchAgentMessage,
} from "./socket.js";
export type { ClientToServerEvents, ServerToClientEvents } from "./socket.js";
export { AgentDraft, PutDraftRequest, ToolTestRequest, ToolTestResponse } from "./design-api.js";
export { SPEC_ISSUE_CODES, SpecIssue, SpecIssueCode, SpecIssueFix, SpecIssueTarget } from "./spec-issue.js";
export { getIssueTarget, parseAgentSpec, SpecError, validateAgentSpec } from "./validate-agent-spec.js";
export type { ValidateAgentSpecResult } from "./validate-agent-spec.js";
export {
  AnswerExpect,
  BudgetExpect,
  findDuplicateCaseNames,
  getTestTotals,
  RecordedLlmReply,
  SaveTestRequest,
  StartTestRunRequest,
  TestCase,
  TestCaseId,
  TestCaseLlm,
  TestCaseResult,
  TestCaseStatus,
  TestExpect,
  TestFailure,
  TestRunRecord,
  TestRunsListResponse,
  TestRunStatus,
  TestSuite,
  TestTotals,
  ToolMock,
  TRAJECTORY_ORDERS,
  TrajectoryExpect,
  TrajectoryOrder,
} from "./agent-tests.js";
export type { TestCaseInput, TestSuiteInput } from "./agent-tests.js";
export {
  AllowListEntry,
  AllowListResponse,
  CREDENTIAL_TEST_CODES,
  CredentialInfo,
  CredentialKind,
  CredentialNameParam,
  CredentialsCheckResponse,
  CredentialsResponse,
  CredentialTestCode,
  HostProblem,
  LlmProblem,
  MAX_CREDENTIAL_BYTES,
  PutAllowListRequest,
  PutCredentialRequest,
  TestCredentialRequest,
  TestCredentialResponse,
} from "./credentials-api.js";
export {
  AUDIT_ACTIONS,
  AUDIT_LIST_DEFAULT_LIMIT,
  AUDIT_LIST_MAX_LIMIT,
  AuditAction,
  AuditEntry,
  AuditQuery,
  AuditResponse,
} from "./audit.js";
export {
  ApiKeySummary,
  ApiKeysResponse,
  CreateApiKeyResponse,
  ROLES,
  type CreateApiKeyRequest,
  type Role,
} from "./roles.js";
export * from "./serving.js";
