import {
  AgentImpl,
  getFieldBounds,
  LlmConfig,
  MockImpl,
  ToolImpl,
  type ToolImplKind,
} from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useServer } from "../editor/editor-context.js";
import { JsonField, NumberField, SelectField, TextField, ToggleField } from "../components/fields.js";
import { TOOL_KIND_INFO } from "../templates/create-new-tool.js";
import { HttpImplEditor } from "./http-impl-editor.js";
import { McpImplEditor } from "./mcp-impl-editor.js";
import { LlmConfigEditor } from "./llm-config-editor.js";

type Impl = ToolImpl;
type ImplOf<K extends ToolImplKind> = Extract<Impl, { kind: K }>;

interface ImplEditorProps {
  impl: Impl;
  /** Replaces the impl; `key` names the edited field, so typing coalesces into one undo step. */
  onChange: (impl: Impl, key: string) => void;
}

const MOCK_BOUNDS = getFieldBounds(MockImpl);
const AGENT_IMPL_BOUNDS = getFieldBounds(AgentImpl);

function getDefaultImpl(
  kind: ToolImplKind,
  options: { moduleRef: string; agentId: string; mcpServer: string; mcpTool: string },
): Impl {
  switch (kind) {
    case "module":
      return { kind, ref: options.moduleRef };
    case "http":
      return ToolImpl.parse({ kind, url: "https://api.example.com/{query}" });
    case "mock":
      return ToolImpl.parse({ kind, output: { result: "{{args.query}}" } });
    case "llm":
      return { kind, prompt: "Answer in JSON: {{args.query}}" };
    case "agent":
      return { kind, agentId: options.agentId };
    case "mcp":
      return { kind, server: options.mcpServer, tool: options.mcpTool };
    case "a2a":
      return ToolImpl.parse({ kind, url: "https://agents.example.com/a2a/my-agent" });
  }
}

/** How the tool runs: its kind and that kind's settings. */
export function ImplEditor({ impl, onChange }: ImplEditorProps): ReactElement {
  const tools = useServer((state) => state.tools);
  const mcpServers = useServer((state) => state.mcpServers);
  const agents = useServer((state) => state.agents);
  const ownId = useDocument((state) => state.spec.id);
  const otherAgents = agents.filter((agent) => agent.id !== ownId);
  const set = <K extends ToolImplKind>(current: ImplOf<K>, patch: Partial<ImplOf<K>>, key: string) => {
    const next = { ...current, ...patch } as Record<string, unknown>;
    for (const [name, value] of Object.entries(patch)) if (value === undefined) delete next[name];
    onChange(next as Impl, key);
  };
  return (
    <div className="field-grid" data-testid="impl-editor">
      <SelectField<ToolImplKind>
        label="Kind"
        value={impl.kind}
        hint={TOOL_KIND_INFO[impl.kind].blurb}
        testId="impl-kind"
        options={(Object.keys(TOOL_KIND_INFO) as ToolImplKind[]).map((kind) => ({
          value: kind,
          label: TOOL_KIND_INFO[kind].label,
        }))}
        onChange={(kind) =>
          onChange(
            getDefaultImpl(kind, {
              moduleRef: tools[0]?.name ?? "my_tool",
              agentId: otherAgents[0]?.id ?? "another-agent",
              mcpServer: mcpServers?.[0]?.name ?? "my-server",
              mcpTool: mcpServers?.[0]?.tools[0]?.name ?? "my_tool",
            }),
            "kind",
          )
        }
      />
      {impl.kind === "module" ? (
        <>
          <TextField
            label="Registered tool"
            value={impl.ref}
            onChange={(ref) => set(impl, { ref }, "ref")}
            hint={
              tools.some((tool) => tool.name === impl.ref)
                ? "Registered on this server."
                : "Not registered on this server: the run fails until it is."
            }
            monospace
          />
          {tools.length > 0 ? (
            <SelectField
              label="Pick from the server"
              value={tools.some((tool) => tool.name === impl.ref) ? impl.ref : ""}
              options={[
                { value: "", label: "—" },
                ...tools.map((tool) => ({ value: tool.name, label: tool.name })),
              ]}
              onChange={(ref) => ref && set(impl, { ref }, "ref")}
            />
          ) : null}
        </>
      ) : null}
      {impl.kind === "mcp" ? (
        <McpImplEditor impl={impl} servers={mcpServers} onChange={(patch, key) => set(impl, patch, key)} />
      ) : null}
      {impl.kind === "a2a" ? (
        <>
          <TextField
            label="Agent URL"
            value={impl.url}
            onChange={(url) => set(impl, { url }, "url")}
            hint="The remote agent's address (its card is read at /.well-known/agent-card.json) or its card's URL. Its host must be on WADDLE_HTTP_ALLOW."
            testId="a2a-url"
            monospace
          />
          <JsonField
            label="Headers"
            value={impl.headers}
            onChange={(headers) => set(impl, { headers: headers as typeof impl.headers }, "headers")}
            hint='Auth from a secret: {"Authorization": {"secret": "REMOTE_TOKEN"}} (WADDLE_SECRET_REMOTE_TOKEN).'
            rows={3}
          />
        </>
      ) : null}
      {impl.kind === "http" ? (
        <HttpImplEditor impl={impl} onChange={(patch, key) => set(impl, patch, key)} />
      ) : null}
      {impl.kind === "mock" ? (
        <>
          <JsonField
            label="Output"
            value={impl.output}
            onChange={(output) => set(impl, { output }, "output")}
            hint="The result, as JSON. Strings like {{args.query}} or {{last.docs[0]}} are filled in at run time."
            testId="mock-output"
            rows={6}
          />
          <NumberField
            label="Latency (ms)"
            value={impl.latencyMs}
            {...MOCK_BOUNDS.latencyMs}
            onChange={(latencyMs) => set(impl, { latencyMs }, "latencyMs")}
            placeholder="0"
          />
          <NumberField
            label="Fail rate"
            value={impl.failRate}
            {...MOCK_BOUNDS.failRate}
            onChange={(failRate) => set(impl, { failRate }, "failRate")}
            placeholder="0 (never)"
            hint="0–1: the share of calls that fail, to demonstrate retries."
          />
          <NumberField
            label="Fail the first N calls"
            value={impl.failFirst}
            {...MOCK_BOUNDS.failFirst}
            onChange={(failFirst) => set(impl, { failFirst }, "failFirst")}
            placeholder="0"
          />
          <TextField
            label="Failure message"
            value={impl.failMessage ?? ""}
            onChange={(failMessage) => set(impl, { failMessage: failMessage || undefined }, "failMessage")}
            placeholder="Mock failure"
          />
        </>
      ) : null}
      {impl.kind === "llm" ? (
        <>
          <TextField
            label="Prompt"
            multiline
            rows={6}
            value={impl.prompt}
            onChange={(prompt) => set(impl, { prompt }, "prompt")}
            hint="Use {{args.name}} for arguments. The answer must be JSON matching the out schema."
            testId="llm-prompt"
          />
          <ToggleField
            label="Use its own model"
            checked={impl.llm !== undefined}
            hint="Off: the agent's main model answers."
            onChange={(on) =>
              set(
                impl,
                { llm: on ? LlmConfig.parse({ provider: "offline", model: "offline" }) : undefined },
                "llm",
              )
            }
          />
          {impl.llm ? (
            <LlmConfigEditor
              value={impl.llm}
              onChange={(patch) => set(impl, { llm: { ...impl.llm, ...patch } as LlmConfig }, "llm")}
            />
          ) : null}
        </>
      ) : null}
      {impl.kind === "agent" ? (
        <>
          <SelectField
            label="Agent"
            value={otherAgents.some((agent) => agent.id === impl.agentId) ? impl.agentId : ""}
            options={[
              { value: "", label: otherAgents.length ? "Choose a saved agent" : "No other saved agents" },
              ...otherAgents.map((agent) => ({ value: agent.id, label: `${agent.name} (${agent.id})` })),
            ]}
            onChange={(agentId) => agentId && set(impl, { agentId }, "agentId")}
          />
          <TextField
            label="Agent id"
            value={impl.agentId}
            onChange={(agentId) => set(impl, { agentId }, "agentId")}
            monospace
          />
          <NumberField
            label="Max iterations"
            value={impl.maxIters}
            {...AGENT_IMPL_BOUNDS.maxIters}
            onChange={(maxIters) => set(impl, { maxIters }, "maxIters")}
            placeholder="its own setting"
          />
        </>
      ) : null}
    </div>
  );
}
