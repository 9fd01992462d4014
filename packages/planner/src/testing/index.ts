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
