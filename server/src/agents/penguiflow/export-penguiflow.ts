import type { AgentSpec, ToolSpec } from "@waddle/protocol";
import { PYTHON_HELPERS } from "./python-helpers.js";
import {
  NameScope,
  toPascalCase,
  toPythonComment,
  toPythonLiteral,
  toPythonString,
} from "./python-source.js";
import { PydanticWriter, type LossyField, type RenamedField } from "./schema-to-pydantic.js";
import type { PenguiflowReport } from "./penguiflow-report.js";
import { getPenguiflowPlanner } from "./penguiflow-planner.js";
import { getPenguiflowReadme } from "./penguiflow-readme.js";

/** Module-level names of catalog.py that tools and models may not take. */
const CATALOG_NAMES = [
  "json",
  "os",
  "re",
  "Any",
  "Literal",
  "Optional",
  "quote",
  "httpx",
  "AsyncOpenAI",
  "BaseModel",
  "ConfigDict",
  "Field",
  "ModelRegistry",
  "Node",
  "NodeSpec",
  "AGENT_LLM",
  "TOOLS",
  "registry",
  "NODES",
  "CATALOG",
];

/** NodeSpec.extra: the tool's planner metadata PenguiFlow's NodeSpec has no field for. */
function getNodeExtra(spec: AgentSpec, tool: ToolSpec): Record<string, unknown> {
  const autoSeqFrom = spec.edges.filter((edge) => edge.kind === "auto_seq" && edge.target === tool.name);
  const orderAfter = spec.edges.filter((edge) => edge.kind === "order" && edge.target === tool.name);
  return {
    ...tool.extra,
    auto_seq: tool.autoSeq,
    auto_seq_execute: tool.autoSeqExecute,
    requires_approval: tool.requiresApproval,
    ...(tool.retry
      ? {
          retry: {
            max_attempts: tool.retry.maxAttempts,
            backoff_ms: tool.retry.backoffMs,
            max_backoff_ms: tool.retry.maxBackoffMs,
          },
        }
      : {}),
    ...(tool.timeoutMs !== undefined ? { timeout_ms: tool.timeoutMs } : {}),
    ...(tool.costUsd !== undefined ? { cost_usd: tool.costUsd } : {}),
    // How long a pause at this tool waits for a person, and what the Waddle server decides then.
    ...(tool.approval
      ? { approval: { timeout_s: tool.approval.timeoutS, on_timeout: tool.approval.onTimeout } }
      : {}),
    ...(autoSeqFrom.length > 0 ? { auto_seq_from: autoSeqFrom.map((edge) => edge.source) } : {}),
    ...(orderAfter.length > 0 ? { order_after: orderAfter.map((edge) => edge.source) } : {}),
    waddle_impl: tool.impl.kind,
  };
}

/** The body of one tool's async function: the same behaviour as Waddle's kind, or a named NotImplementedError. */
function getToolBody(tool: ToolSpec, out: string): string[] {
  const key = toPythonString(tool.name);
  const args = `args.model_dump(by_alias=True, exclude_none=True)`;
  switch (tool.impl.kind) {
    case "mock":
      return [
        `    return ${out}.model_validate(_render(TOOLS[${key}]["impl"]["output"], {"args": ${args}}))`,
      ];
    case "http":
      return [`    return ${out}.model_validate(await _call_http(TOOLS[${key}]["impl"], ${args}))`];
    case "llm":
      return [`    return ${out}.model_validate(await _call_llm(TOOLS[${key}], ${args}, AGENT_LLM))`];
    case "mcp":
      return [
        `    raise NotImplementedError(${toPythonString(`mcp tool: call tool "${tool.impl.tool}" of MCP server "${tool.impl.server}" with an MCP client here.`)})`,
      ];
    case "module":
      return [
        `    raise NotImplementedError(${toPythonString(`module tool: port the TypeScript tool "${tool.impl.ref}" to Python here.`)})`,
      ];
    case "agent":
      return [
        `    raise NotImplementedError(${toPythonString(`agent tool: run the exported subagent "${tool.impl.agentId}" here (export it with format=penguiflow too).`)})`,
      ];
    case "a2a":
      return [
        `    raise NotImplementedError(${toPythonString(`a2a tool: send the args as a message/send to the A2A agent at ${tool.impl.url} with an A2A client (e.g. a2a-sdk) here.`)})`,
      ];
  }
}

function getCatalog(
  spec: AgentSpec,
  report: PenguiflowReport,
): { source: string; lossy: LossyField[]; renamed: RenamedField[] } {
  const names = new NameScope(CATALOG_NAMES);
  const functions = spec.tools.map((tool) => {
    // A dunder name (`__import__`, `__init__`) would shadow Python's own: such tools get a prefix.
    const name = names.take(tool.name.startsWith("__") ? `tool${tool.name}` : tool.name);
    if (name !== tool.name) report.toolFunctions.push({ tool: tool.name, function: name });
    return name;
  });
  const writer = new PydanticWriter(names);
  const models = spec.tools.map((tool) => {
    const args = writer.writeModel(
      `${toPascalCase(tool.name)}Args`,
      tool.argsSchema,
      `tools.${tool.name}.argsSchema`,
    );
    const out = writer.writeModel(
      `${toPascalCase(tool.name)}Out`,
      tool.outSchema,
      `tools.${tool.name}.outSchema`,
    );
    report.models.push({ tool: tool.name, args, out });
    return { args, out };
  });
  const toolData = Object.fromEntries(
    spec.tools.map((tool) => [
      tool.name,
      { name: tool.name, desc: tool.desc, impl: tool.impl, outSchema: tool.outSchema },
    ]),
  );
  const functionsSource = spec.tools.map((tool, index) => {
    const { args, out } = models[index]!;
    return [
      `# ${toPythonComment(`${tool.name}: ${tool.impl.kind} tool`)}`,
      `async def ${functions[index]}(args: ${args}, ctx: Any) -> ${out}:`,
      ...getToolBody(tool, out),
      ``,
    ].join("\n");
  });
  const nodeSpecs = spec.tools.map((tool, index) => {
    const { args, out } = models[index]!;
    const key = toPythonString(tool.name);
    return [
      `    NodeSpec(`,
      `        node=NODES[${key}],`,
      `        name=${key},`,
      `        desc=${toPythonString(tool.desc)},`,
      `        args_model=${args},`,
      `        out_model=${out},`,
      `        side_effects=${toPythonString(tool.sideEffects)},`,
      `        tags=(${tool.tags
        .map(toPythonString)
        .map((tag) => `${tag}, `)
        .join("")}),`,
      `        auth_scopes=(${tool.authScopes
        .map(toPythonString)
        .map((scope) => `${scope}, `)
        .join("")}),`,
      `        cost_hint=${tool.costHint === undefined ? "None" : toPythonString(tool.costHint)},`,
      `        latency_hint_ms=${tool.latencyHintMs === undefined ? "None" : String(tool.latencyHintMs)},`,
      `        safety_notes=${tool.safetyNotes === undefined ? "None" : toPythonString(tool.safetyNotes)},`,
      `        extra=${toPythonLiteral(getNodeExtra(spec, tool), "        ")},`,
      `    ),`,
    ].join("\n");
  });
  const source = [
    `# Tool catalog of a Waddle agent for PenguiFlow's ReactPlanner. Generated by Waddle: re-export to change it.`,
    `# Agent: ${toPythonComment(spec.name)}`,
    `# Names that are not Python identifiers are mapped; README.md lists the mapping.`,
    `import json`,
    `import os`,
    `import re`,
    `from typing import Any, Literal, Optional`,
    `from urllib.parse import quote`,
    ``,
    `import httpx`,
    `from openai import AsyncOpenAI`,
    `from pydantic import BaseModel, ConfigDict, Field`,
    ``,
    `from penguiflow import ModelRegistry, Node`,
    `from penguiflow.catalog import NodeSpec`,
    PYTHON_HELPERS,
    `# The agent's own LLM settings (llm tools without their own use it); keys are read from the environment.`,
    `AGENT_LLM: dict[str, Any] = ${toPythonLiteral(spec.llm)}`,
    ``,
    `# Each tool's name, description, implementation and out schema, as data.`,
    `TOOLS: dict[str, dict[str, Any]] = ${toPythonLiteral(toolData)}`,
    ``,
    ``,
    ...writer.classes.map((text) => `${text}\n`),
    ...functionsSource.map((text) => `${text}\n`),
    `registry = ModelRegistry()`,
    ...spec.tools.map(
      (tool, index) =>
        `registry.register(${toPythonString(tool.name)}, ${models[index]!.args}, ${models[index]!.out})`,
    ),
    ``,
    `NODES: dict[str, Node] = {`,
    ...spec.tools.map(
      (tool, index) =>
        `    ${toPythonString(tool.name)}: Node(${functions[index]}, name=${toPythonString(tool.name)}),`,
    ),
    `}`,
    ``,
    `CATALOG: list[NodeSpec] = [`,
    ...nodeSpecs,
    `]`,
    ``,
  ].join("\n");
  return { source, lossy: writer.lossy, renamed: writer.renamed };
}

/** Tools whose body is a NotImplementedError, and spec parts PenguiFlow has no place for. */
function getToolNotes(spec: AgentSpec, report: PenguiflowReport): void {
  for (const tool of spec.tools) {
    const kind = tool.impl.kind;
    if (kind === "mcp" || kind === "module" || kind === "agent" || kind === "a2a") {
      report.notCarried.push({
        what: `${tool.name} (${kind} tool) body`,
        where: "catalog.py raises NotImplementedError",
      });
    }
    if (
      kind === "mock" &&
      (tool.impl.latencyMs !== undefined ||
        tool.impl.failRate !== undefined ||
        tool.impl.failFirst !== undefined)
    ) {
      report.notCarried.push({
        what: `${tool.name} mock latency and faults`,
        where: "catalog.py TOOLS (data only)",
      });
    }
  }
}

/**
 * The files of a `format=penguiflow` export: catalog.py (pydantic models and a NodeSpec per tool),
 * planner.py (ReactPlanner with the hints, limits and switches), requirements.txt, README.md and
 * waddle-agent.json (the spec, for `POST /api/agents/import`). Spec text reaches the Python only as string
 * literals with every non-ASCII character escaped, and comments only through `toPythonComment`.
 */
export function exportPenguiflow(spec: AgentSpec): {
  files: Record<string, string>;
  report: PenguiflowReport;
} {
  const report: PenguiflowReport = {
    toolFunctions: [],
    models: [],
    renamedFields: [],
    lossy: [],
    notCarried: [],
  };
  const catalog = getCatalog(spec, report);
  report.lossy.push(...catalog.lossy);
  report.renamedFields.push(...catalog.renamed);
  const planner = getPenguiflowPlanner(spec, report);
  getToolNotes(spec, report);
  const files: Record<string, string> = {
    "catalog.py": catalog.source,
    "planner.py": planner,
    "requirements.txt": "penguiflow\npydantic>=2.7\nhttpx>=0.27\nopenai>=1.40\n",
    "README.md": getPenguiflowReadme(spec, report),
    "waddle-agent.json": `${JSON.stringify(spec, null, 2)}\n`,
  };
  return { files, report };
}
