import type { AgentCard, SecurityRequirement, SecurityScheme } from "@a2a-js/sdk";
import type { AgentSpec } from "@waddle/protocol";

/** The Agent Card's JSON-RPC interfaces: v1.0, and v0.3 through the SDK's compatibility layer. */
export const A2A_PROTOCOL_VERSIONS = ["1.0", "0.3"] as const;

/** A skill's id from a sample query: `sample-1`, `sample-2`… (ids stay stable while the text changes). */
const skillId = (index: number) => `sample-${index + 1}`;

/**
 * The Agent Card of a saved agent, served at `/a2a/<agentId>/.well-known/agent-card.json`: its name and
 * description, one skill per sample query (or one skill for the agent when it has none), streaming, and
 * a bearer scheme when the server needs `WADDLE_TOKEN`.
 */
export function getAgentCard(
  spec: AgentSpec,
  options: { url: string; tokenRequired: boolean; version: string },
): AgentCard {
  const description = spec.description || `The Waddle agent "${spec.name}".`;
  const skills = (spec.sampleQueries.length > 0 ? spec.sampleQueries : [undefined]).map((query, index) => ({
    id: query === undefined ? spec.id : skillId(index),
    name: query === undefined ? spec.name : query.slice(0, 80),
    description: query === undefined ? description : `${description} For example: ${query}`,
    tags: ["waddle", spec.id],
    examples: query === undefined ? [] : [query],
    inputModes: ["text/plain", "application/json"],
    outputModes: ["text/plain"],
    securityRequirements: [],
  }));
  const bearer: {
    securitySchemes: Record<string, SecurityScheme>;
    securityRequirements: SecurityRequirement[];
  } = options.tokenRequired
    ? {
        securitySchemes: {
          bearer: {
            scheme: {
              $case: "httpAuthSecurityScheme" as const,
              value: { scheme: "bearer", bearerFormat: "", description: "The server's WADDLE_TOKEN." },
            },
          },
        },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      }
    : { securitySchemes: {}, securityRequirements: [] };
  return {
    name: spec.name,
    description,
    supportedInterfaces: A2A_PROTOCOL_VERSIONS.map((protocolVersion) => ({
      url: options.url,
      protocolBinding: "JSONRPC",
      tenant: "",
      protocolVersion,
    })),
    provider: { organization: "Waddle", url: options.url },
    version: options.version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    ...bearer,
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills,
    signatures: [],
  };
}
