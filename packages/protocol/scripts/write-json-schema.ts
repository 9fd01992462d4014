// Writes agent-spec.schema.json, the JSON Schema of AgentSpec that editors can point `$schema` at.
import { writeFileSync } from "node:fs";
import { agentSpecJsonSchema } from "../src/json-schema.js";

const target = new URL("../agent-spec.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(agentSpecJsonSchema, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
