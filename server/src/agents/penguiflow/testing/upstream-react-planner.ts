/**
 * What the PenguiFlow export's planner.py is checked against where PenguiFlow itself is not installed:
 * `ReactPlanner.__init__`'s keywords with their annotations, and the classes those name, as recorded from
 * hurtener/penguiflow at 26ec6ba (package 3.6.4) with `inspect.signature` and `model_fields`.
 * To re-record, see server/docs/penguiflow-export.md.
 */
export const UPSTREAM_SOURCE = "hurtener/penguiflow 26ec6ba (penguiflow 3.6.4)";

/** `ReactPlanner.__init__` keyword → its annotation, verbatim. */
export const REACT_PLANNER_KEYWORDS: Readonly<Record<string, string>> = {
  llm: "str | Mapping[str, Any] | None",
  nodes: "Sequence[Node] | None",
  catalog: "Sequence[NodeSpec] | None",
  registry: "ModelRegistry | None",
  llm_client: "JSONLLMClient | None",
  max_iters: "int",
  temperature: "float",
  json_schema_mode: "bool",
  system_prompt_extra: "str | None",
  token_budget: "int | None",
  pause_enabled: "bool",
  state_store: "Any | None",
  artifact_store: "ArtifactStore | None",
  observation_guardrail: "ObservationGuardrailConfig | None",
  summarizer_llm: "str | Mapping[str, Any] | None",
  planning_hints: "Mapping[str, Any] | None",
  repair_attempts: "int",
  max_consecutive_arg_failures: "int",
  arg_fill_enabled: "bool",
  deadline_s: "float | None",
  hop_budget: "int | None",
  time_source: "Callable[[], float] | None",
  event_callback: "PlannerEventCallback | None",
  llm_timeout_s: "float",
  llm_max_retries: "int",
  use_native_reasoning: "bool",
  reasoning_effort: "str | None",
  absolute_max_parallel: "int",
  reflection_config: "ReflectionConfig | None",
  reflection_llm: "str | Mapping[str, Any] | None",
  tool_policy: "ToolPolicy | None",
  stream_final_response: "bool",
  short_term_memory: "ShortTermMemory | ShortTermMemoryConfig | None",
  background_tasks: "BackgroundTasksConfig | None",
  error_recovery: "ErrorRecoveryConfig | None",
  multi_action_sequential: "bool",
  multi_action_read_only_only: "bool",
  multi_action_max_tools: "int",
  auto_seq_enabled: "bool",
  auto_seq_execute: "bool",
  auto_seq_read_only_only: "bool",
  use_native_llm: "bool",
  guardrail_gateway: "Any | None",
  guardrail_conversation_history_turns: "int",
  tool_search: "ToolSearchConfig | None",
  tool_examples: "ToolExamplesConfig | None",
  skills: "SkillsConfig | None",
  skills_provider: "Any | None",
  skills_provider_factory: "Any | None",
  llm_context_hooks: "Sequence[LLMContextHook] | None",
};

/**
 * The classes named above that the export uses, and how a stand-in recognises them: a pydantic `model`
 * (constructed by the generated code, with its fields' annotations), a plain `class` from the catalog, or
 * a `protocol` (any object with the method). A class not listed here must be recorded before the export
 * passes it.
 */
export const UPSTREAM_CLASSES: Readonly<Record<string, UpstreamClass>> = {
  BackgroundTasksConfig: {
    kind: "model",
    module: "penguiflow.planner",
    fields: {
      enabled: "bool",
      include_prompt_guidance: "bool",
      allow_tool_background: "bool",
      default_mode: "str",
      default_merge_strategy: "str",
      context_depth: "str",
      propagate_on_cancel: "str",
      spawn_requires_confirmation: "bool",
      max_concurrent_tasks: "int",
      max_tasks_per_session: "int",
      task_timeout_s: "int",
      max_pending_steering: "int",
      proactive_report_enabled: "bool",
      proactive_report_strategies: "list[str]",
      proactive_report_max_queued: "int",
      proactive_report_timeout_s: "float",
      proactive_report_max_hops: "int",
      proactive_report_fallback_notification: "bool",
      default_group_merge_strategy: "str",
      default_group_report: "str",
      group_timeout_s: "float",
      group_partial_on_failure: "bool",
      max_tasks_per_group: "int",
      auto_seal_groups_on_foreground_yield: "bool",
      retain_turn_timeout_s: "float",
      background_continuation_max_hops: "int",
      background_continuation_cooldown_s: "float",
    },
  },
  NodeSpec: { kind: "class", module: "penguiflow.catalog" },
  Node: { kind: "class", module: "penguiflow" },
  ModelRegistry: { kind: "class", module: "penguiflow" },
  JSONLLMClient: { kind: "protocol", method: "complete" },
};

export type UpstreamClass =
  | { kind: "model"; module: string; fields: Readonly<Record<string, string>> }
  | { kind: "class"; module: string }
  | { kind: "protocol"; method: string };
