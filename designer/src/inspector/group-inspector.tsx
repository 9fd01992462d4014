import {
  getFieldBounds,
  INJECT_SOURCES,
  ParallelGroup,
  type GroupJoin,
  type ToolSpec,
} from "@waddle/protocol";
import type { ReactElement } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import { JsonField, NumberField, SelectField, TextField, ToggleField } from "../components/fields.js";
import { Icon } from "../components/icon.js";
import { KeyValueField } from "../components/key-value-field.js";
import { Section } from "../components/section.js";
import { useFieldsetDenied } from "../components/permission-fieldset.js";
import { getAbsolutePosition } from "../model/layout-geometry.js";
import {
  getArgsSchemaWithResults,
  getDefaultJoin,
  getRetargetedJoin,
  isMissingResultsArg,
} from "../store/get-default-join.js";

const GROUP_BOUNDS = getFieldBounds(ParallelGroup);

const SOURCE_INFO: Record<(typeof INJECT_SOURCES)[number], string> = {
  $results: "every branch's result, in order",
  $branches: "each branch with its tool, args and result",
  $failures: "the branches that failed",
  $success_count: "how many branches succeeded",
  $failure_count: "how many branches failed",
  $expect: "how many branches were started",
};

/** A parallel group: name, max parallel, members, and the join (tool, args, injected sources). */
export function GroupInspector({ group }: { group: ParallelGroup }): ReactElement {
  const editor = useEditor();
  const tools = useDocument((state) => state.spec.tools);
  const dispatch = editor.document.getState().dispatch;
  const denied = useFieldsetDenied();
  const update = (patch: Partial<Omit<ParallelGroup, "id" | "kind" | "members">>, key: string) =>
    dispatch({ type: "updateGroup", id: group.id, patch }, { coalesceKey: `group:${group.id}:${key}` });
  const setJoin = (patch: Partial<GroupJoin>, key: string) =>
    group.join && update({ join: { ...group.join, ...patch } }, `join.${key}`);
  const joinCandidates = tools.filter((tool) => !group.members.includes(tool.name));
  const joinTool = tools.find((tool) => tool.name === group.join?.tool);
  const joinArgs = Object.entries(
    (joinTool?.argsSchema.properties as Record<string, unknown> | undefined) ?? {},
  ).map(([name, field]) => describeArg(name, field));
  const spec = () => editor.document.getState().spec;
  return (
    <div className="inspector-body" data-testid="group-inspector">
      <div className="inspector-title">
        <Icon name="group" />
        <h2>{group.name}</h2>
      </div>
      <Section title="Group">
        <TextField
          label="Name"
          value={group.name}
          onChange={(name) => update({ name }, "name")}
          testId="group-name-input"
        />
        <NumberField
          label="Max parallel"
          value={group.maxParallel}
          {...GROUP_BOUNDS.maxParallel}
          onChange={(maxParallel) => update({ maxParallel }, "maxParallel")}
          placeholder="no limit of its own"
          hint="How many members may run at the same time."
          testId="group-max-parallel"
        />
        <TextField
          label="Id"
          value={group.id}
          onChange={() => undefined}
          readOnly
          testId="group-id-input"
          hint="Fixed: the layout and edges refer to it."
        />
      </Section>
      <Section title="Members" summary={`${group.members.length}`}>
        {group.members.length === 0 ? (
          <p className="empty-note">Drag tools into the frame on the canvas to add them.</p>
        ) : null}
        <ul className="member-list">
          {group.members.map((member) => (
            <li key={member}>
              <span className="mono">{member}</span>
              <button
                type="button"
                className="btn btn-ghost btn-small"
                title={denied ?? "Take it out of the group (it stays on the canvas)"}
                onClick={() =>
                  dispatch({
                    type: "setMembership",
                    tool: member,
                    groupId: null,
                    position: getAbsolutePosition(editor.document.getState().spec, member),
                  })
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <Section title="Join">
        <ToggleField
          label="Join the results with a tool"
          checked={group.join !== undefined}
          hint="After all branches finish, one tool receives their results."
          testId="group-join-toggle"
          onChange={(on) =>
            update(
              {
                join: on ? getDefaultJoin(spec(), group) : undefined,
              },
              "join",
            )
          }
        />
        {group.join ? (
          <>
            <SelectField
              label="Join tool"
              value={group.join.tool}
              testId="group-join-tool"
              options={[
                ...(joinTool ? [] : [{ value: group.join.tool, label: group.join.tool || "Choose a tool" }]),
                ...joinCandidates.map((tool) => ({ value: tool.name, label: tool.name })),
              ]}
              onChange={(tool) =>
                group.join &&
                update({ join: getRetargetedJoin(spec(), { join: group.join, tool }) }, "join.tool")
              }
            />
            <KeyValueField<string>
              label="Inject"
              testId="group-join-inject"
              hint={
                joinArgs.length > 0
                  ? `Arguments of ${group.join.tool}: ${joinArgs.join(", ")}.`
                  : "Map the join tool's arguments to what the branches produced."
              }
              entries={group.join.inject}
              onChange={(inject) => setJoin({ inject }, "inject")}
              createValue={() => "$results"}
              keyPlaceholder="arg"
              addLabel="Injection"
              renderValue={(value, setValue) => (
                <select
                  className="input"
                  aria-label="Injection source"
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                >
                  {(INJECT_SOURCES as readonly string[]).includes(value) ? null : (
                    <option value={value}>{value}</option>
                  )}
                  {INJECT_SOURCES.map((source) => (
                    <option key={source} value={source} title={SOURCE_INFO[source]}>
                      {source} — {SOURCE_INFO[source]}
                    </option>
                  ))}
                </select>
              )}
            />
            {joinTool && isMissingResultsArg(joinTool) ? (
              <MissingResultsNote group={group} tool={joinTool} />
            ) : null}
            <JoinIssues groupId={group.id} />
            <JsonField
              label="Fixed args"
              value={group.join.args}
              rows={3}
              onChange={(args) => setJoin({ args: args as Record<string, unknown> }, "args")}
              hint="Arguments given to the join tool as they are."
              check={(value) =>
                typeof value === "object" && value !== null && !Array.isArray(value)
                  ? null
                  : "Must be a JSON object."
              }
            />
          </>
        ) : null}
      </Section>
      <button
        type="button"
        className="btn btn-danger-ghost"
        onClick={() => dispatch({ type: "removeElements", groups: [group.id] })}
      >
        <Icon name="trash" size={14} /> Delete group (members stay)
      </button>
    </div>
  );
}

/** `results (array)`: an argument of the join tool with its type, for the inject hint. */
function describeArg(name: string, field: unknown): string {
  const type = (field as { type?: unknown } | null)?.type;
  return typeof type === "string" ? `${name} (${type})` : name;
}

/**
 * Said when the join tool has no argument that takes the branches' results (an array): nothing is
 * injected there by default, and one click adds such an argument and injects `$results` into it.
 */
function MissingResultsNote({ group, tool }: { group: ParallelGroup; tool: ToolSpec }): ReactElement {
  const editor = useEditor();
  const addResultsArg = () => {
    const join = group.join;
    if (!join) return;
    const { argsSchema, arg } = getArgsSchemaWithResults(tool.argsSchema);
    editor.document.getState().dispatch({
      type: "batch",
      label: `add ${arg} to ${tool.name}`,
      changes: [
        { type: "updateTool", name: tool.name, patch: { argsSchema } },
        {
          type: "updateGroup",
          id: group.id,
          patch: { join: { ...join, inject: { ...join.inject, [arg]: "$results" } } },
        },
      ],
    });
  };
  return (
    <div className="field" data-testid="group-join-no-results-arg">
      <p className="field-hint">
        {tool.name} has no argument that takes the branches&apos; results (an array), so none is injected. Add
        one, or choose another join tool.
      </p>
      <button
        type="button"
        className="btn btn-small"
        data-testid="group-join-add-results-arg"
        onClick={addResultsArg}
      >
        Add a results argument to {tool.name}
      </button>
    </div>
  );
}

/** Validation issues about this group's join (an injection its tool refuses, a wrong type, …), in place. */
function JoinIssues({ groupId }: { groupId: string }): ReactElement | null {
  const { issues } = useValidation();
  const index = useDocument((state) => state.spec.groups.findIndex((group) => group.id === groupId));
  const prefix = `$.groups[${index}].join`;
  const own = issues.filter((issue) => issue.path === prefix || issue.path.startsWith(`${prefix}.`));
  if (own.length === 0) return null;
  return (
    <ul className="issue-list compact" data-testid="group-join-issues">
      {own.map((issue) => (
        <li key={`${issue.path} ${issue.code}`} className={`issue-row is-${issue.severity}`}>
          <span className="issue-message">{issue.message}</span>
        </li>
      ))}
    </ul>
  );
}
