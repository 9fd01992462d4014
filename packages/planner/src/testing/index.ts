// Test doubles and fixtures for code built on @waddle/planner.
export { ScriptedClient, scriptedReply } from "./scripted-client.js";
export type {
  ScriptedCall,
  ScriptedClientOptions,
  ScriptedContent,
  ScriptedReply,
  ScriptedReplyFunction,
  ScriptedReplyOptions,
  ScriptedReplyWithOptions,
} from "./scripted-client.js";
export { fixtureReply } from "./openai-fixture-replies.js";
export type {
  FixtureCompletion,
  FixtureDropConnection,
  FixtureHttpError,
  FixtureReply,
  FixtureUsage,
} from "./openai-fixture-replies.js";
export { startOpenAiFixtureServer } from "./openai-fixture-server.js";
export type {
  FixtureRequest,
  OpenAiFixtureServer,
  OpenAiFixtureServerOptions,
} from "./openai-fixture-server.js";
export { runStateStoreConformance, stateStoreConformanceCases } from "./state-store-conformance.js";
export type { StateStoreConformanceCase } from "./state-store-conformance.js";
export { ManualTimers } from "./manual-timers.js";
export { createPathologicalTrajectory } from "./pathological-trajectory.js";
export { MALFORMED_CORPUS } from "./malformed-corpus.js";
export { runMalformedCase, summarizeCorpus } from "./malformed-corpus-runner.js";
export type {
  CorpusOutcome,
  CorpusReply,
  CorpusResult,
  CorpusSummary,
  MalformedCase,
} from "./malformed-corpus-runner.js";
