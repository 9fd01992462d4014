import { z } from "zod";

/** Every code `validateAgentSpec` can report. */
export const SPEC_ISSUE_CODES = [
  // structure (from the zod schema)
  "invalid_type",
  "invalid_value",
  "missing_field",
  "unknown_key",
  "too_small",
  "too_big",
  "invalid_format",
  "invalid_slug",
  "invalid_tool_name",
  "invalid_env_name",
  // cross references
  "duplicate_tool_name",
  "reserved_tool_name",
  "duplicate_id",
  "unknown_tool",
  "self_edge",
  "duplicate_edge",
  "tool_in_multiple_groups",
  "sequential_only_in_parallel_group",
  "disallowed_in_parallel_group",
  "group_too_small",
  "join_tool_is_member",
  "schema_not_object",
  "invalid_json_schema",
  "invalid_default",
  "auto_seq_into_side_effect",
  "auto_seq_edge_into_non_auto_seq_tool",
  "auto_seq_execute_without_auto_seq",
  "auto_seq_disabled",
  "missing_description",
  "approval_without_pause",
  "invalid_inject_source",
  "unknown_join_arg",
  "join_arg_refused",
  "join_arg_type_mismatch",
  "join_arg_unsupplied",
  "ordering_cycle",
  "disallowed_and_preferred",
  // planning hints that contradict each other (every run would pause on a constraints conflict)
  "ordering_disallowed",
  "join_disallowed",
  "all_tools_disallowed",
  "literal_secret_header",
  "invalid_url",
  // templates and auto-seq fit (mistakes in the agent: what would fail at run time)
  "unknown_template_arg",
  "unfilled_template",
  "unused_required_arg",
  "auto_seq_without_out_schema",
  "auto_seq_args_unfilled",
  "unknown_agent",
  // this server's settings (always warnings: fixing the setting is enough, no re-save)
  "host_not_allowed",
  "llm_endpoint_not_allowed",
  "missing_secret",
  "missing_credential",
  "mcp_server_not_configured",
  "mcp_unknown_tool",
  "a2a_card_unavailable",
  "unknown_guard_check",
] as const;
export const SpecIssueCode = z.enum(SPEC_ISSUE_CODES);
export type SpecIssueCode = z.infer<typeof SpecIssueCode>;

/** The element of the spec an issue concerns, so that the designer can badge and reveal it. */
export const SpecIssueTarget = z.object({
  kind: z.enum(["agent", "llm", "planner", "tool", "edge", "group", "hints", "layout"]),
  id: z.string().optional(),
});
export type SpecIssueTarget = z.infer<typeof SpecIssueTarget>;

/**
 * What the designer can do about an issue in one click: add the missing argument, remove a broken edge,
 * allow a host, add a secret or credential (these two open the server's Credentials page).
 */
export const SpecIssueFix = z.discriminatedUnion("action", [
  z.object({ action: z.literal("add_argument"), label: z.string(), tool: z.string(), name: z.string() }),
  z.object({ action: z.literal("remove_edge"), label: z.string(), edgeId: z.string() }),
  z.object({
    action: z.literal("allow_host"),
    label: z.string(),
    host: z.string(),
    list: z.enum(["http", "llm"]),
  }),
  z.object({ action: z.literal("add_secret"), label: z.string(), name: z.string() }),
  z.object({ action: z.literal("add_credential"), label: z.string(), name: z.string() }),
]);
export type SpecIssueFix = z.infer<typeof SpecIssueFix>;

/** One problem in a spec: where it is (JSON path such as `$.tools[2].name`), what it is, what to do. */
export const SpecIssue = z.object({
  severity: z.enum(["error", "warning"]),
  path: z.string(),
  code: SpecIssueCode,
  message: z.string(),
  target: SpecIssueTarget.optional(),
  fix: SpecIssueFix.optional(),
});
export type SpecIssue = z.infer<typeof SpecIssue>;
