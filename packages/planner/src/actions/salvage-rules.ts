/** One thing the planner recovered from a reply without asking the model again, for `action_salvaged`. */
export interface SalvageNote {
  /** The rule's name: `fenced`, `legacy_terminal`, `synonym:raw_answer`, `answer_lines`, … */
  rule: string;
  /** What was recovered and how, in a sentence. */
  detail?: string;
}

/** What each rule did, when the place that applied it has nothing more specific to say. */
const DETAILS: Readonly<Record<string, string>> = {
  direct: "the reply was clean JSON",
  double_encoded: "the action was sent as a JSON string holding JSON",
  fenced: "the action was read from a code fence",
  embedded: "the action was read from the prose around it",
  python_literal: "a Python-literal dict (single quotes, None/True/False, trailing commas) was read as JSON",
  control_chars: "raw newlines or tabs inside strings were escaped",
  inner_quotes: "quotes inside a string that could not end it were escaped",
  smart_quotes: "typographic quotes around keys and strings were read as JSON quotes",
  js_comments: "// and /* */ comments were dropped",
  unquoted_keys: "keys written without quotes (a JavaScript object) were quoted",
  next_node_alias: "nextNode (or next_action) was read as next_node",
  args_alias: "arguments (or parameters, input) beside next_node were read as args",
  opcode_spelling: "an opcode spelled loosely (case, spaces, dashes) was read as its canonical name",
  legacy: "legacy shape: the thought field was kept apart from the action",
  legacy_terminal: "next_node null (legacy) was read as final_response",
  legacy_plan: "a top-level plan (legacy) was read as a parallel action",
  hybrid: "fields outside args were read as the args",
  wrapper: "the action was unwrapped from an outer object",
  args_string: "args sent as a JSON string were parsed",
  step_shape: "steps written {tool, arguments} were read as {node, args}",
  tool_call_shape:
    "a function-call shape ({name, arguments}, {action, action_input}) was read as a tool call",
  bare_answer: "an object holding only an answer was read as final_response",
  answer_without_next_node: "args holding an answer, with no usable next_node, were read as final_response",
  answer_lines: "an answer given as a list of lines was joined",
  args_lines: "args given as a list of lines were joined as the answer",
  answer_texts_kept:
    "the answer was given twice with different texts: args.answer is the answer, the other text is kept under extra",
  answer_unwrapped: "an answer nested in an object was read from it",
  answer_coerced: "an answer given as a number or boolean was written as text",
  action_array: "a JSON array of actions: the first runs, the others are offered back as alternates",
  several_actions: "several actions in one reply: the first runs, the others are offered back as alternates",
  parallel_step_dropped: "malformed parallel steps were dropped; the valid ones run",
  join_dropped: "a join without a node was dropped: the model combines the results itself",
  join_shape: "a join given as a tool name was read as {node}",
  inject_mapping: "inject: {mapping: {...}} was read as the inject map",
  task_name_derived: "the background task had no name: one was derived",
  task_query_wins: "a task with a string query and a tool was read as task.subagent on the query",
  merge_strategy_spelling: "a merge strategy spelled loosely was read as its canonical name",
  group_report_spelling: "a group_report spelled loosely was read as its canonical name",
  placeholder_dropped: "optional args holding placeholders were dropped",
  arg_types_coerced: "numbers and booleans sent as strings were read as values",
  answer_string: "the reply was not valid JSON: its complete answer string was kept, the rest was lost",
  cut_off_answer_kept: "a cut-off reply is no answer: its text was kept under extra.cut_off_answer",
  final_extra: "final_response keys with no payload field were kept under extra",
  final_invalid_moved: "final_response fields that did not validate were moved under extra",
  sources_strings: "sources given as strings were read as {url} or {title}",
};

/** A note for `rule`, with `detail` or the rule's usual description. */
export function createSalvageNote(rule: string, detail?: string): SalvageNote {
  const text = detail ?? DETAILS[rule] ?? describeSynonym(rule);
  return text === undefined ? { rule } : { rule, detail: text };
}

function describeSynonym(rule: string): string | undefined {
  if (!rule.startsWith("synonym:")) return undefined;
  const word = rule.slice("synonym:".length);
  if (word === "plan") return '"plan" was read as parallel';
  if (word === "task") return '"task" was read as task.subagent or task.tool';
  if (["raw_answer", "final_answer", "text", "response", "content"].includes(word))
    return `"${word}" was read as the answer`;
  return `"${word}" was read as final_response`;
}
