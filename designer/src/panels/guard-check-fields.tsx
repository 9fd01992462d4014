import { getNumberBounds, GuardCheck, PII_TYPES, type PiiType, type SpecIssue } from "@waddle/protocol";
import type { ReactElement } from "react";
import { NumberField, TextField, ToggleField } from "../components/fields.js";
import { useDraftText, isSameJson } from "../components/use-draft-text.js";
import { SchemaEditor } from "../inspector/schema-editor.js";
import { IssueList } from "./guard-issue-list.js";

// the schema's own limits on `chars`, so the box refuses what saving would
const MAX_LENGTH_BOUNDS = getNumberBounds(
  GuardCheck.options.flatMap((option) => ("chars" in option.shape ? [option.shape.chars] : []))[0]!,
);

const PII_LABELS: Record<PiiType, string> = {
  email: "Emails",
  phone: "Phone numbers",
  card: "Payment cards",
  iban: "IBANs",
};

/** The options of a guard's check, by kind; `issuesAt` gives the validation issues under `check.<field>`. */
export function GuardCheckFields(props: {
  check: GuardCheck;
  onChange: (check: GuardCheck) => void;
  issuesAt: (field: string) => SpecIssue[];
  testId: string;
}): ReactElement | null {
  const { check, onChange, issuesAt, testId } = props;
  switch (check.kind) {
    case "pii":
      return <PiiTypes check={check} onChange={onChange} testId={testId} />;
    case "max_length":
      return (
        <NumberField
          label="Most characters"
          value={check.chars}
          {...MAX_LENGTH_BOUNDS}
          optional={false}
          hint="Longer text fails; redact cuts it to this length."
          testId={`${testId}-chars`}
          onChange={(chars) => onChange({ ...check, chars: chars ?? 4_000 })}
        />
      );
    case "deny_words":
      return <DenyWords check={check} onChange={onChange} issuesAt={issuesAt} testId={testId} />;
    case "json_schema":
      return (
        <div className="field">
          <span className="field-label">The text must be JSON valid against</span>
          <SchemaEditor
            schema={check.schema}
            onChange={(schema) => onChange({ ...check, schema: schema ?? { type: "object" } })}
            testId={`${testId}-schema`}
            emptyText="No declared fields: any JSON object passes."
          />
          <IssueList issues={issuesAt("schema")} />
        </div>
      );
    case "llm":
      return (
        <>
          <TextField
            label="Judging prompt"
            multiline
            rows={3}
            value={check.prompt}
            hint={
              check.llm
                ? `Judged by ${check.llm.provider}/${check.llm.model}. The model answers pass or fail and a reason.`
                : "Judged by the agent's own model (on the offline model, a deterministic stand-in). It answers pass or fail and a reason."
            }
            error={issuesAt("prompt")[0]?.message ?? null}
            testId={`${testId}-prompt`}
            onChange={(prompt) => onChange({ ...check, prompt })}
          />
          {check.llm ? (
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => onChange({ kind: "llm", prompt: check.prompt })}
            >
              Judge with the agent&apos;s model instead
            </button>
          ) : null}
        </>
      );
    case "module":
      return (
        <TextField
          label="Registered check"
          value={check.name}
          placeholder="e.g. no-competitor-names"
          hint="The name a server module registered with defineGuardCheck."
          error={issuesAt("name")[0]?.message ?? null}
          monospace
          testId={`${testId}-module`}
          onChange={(name) => onChange({ ...check, name })}
        />
      );
    default:
      return null;
  }
}

function PiiTypes(props: {
  check: Extract<GuardCheck, { kind: "pii" }>;
  onChange: (check: GuardCheck) => void;
  testId: string;
}): ReactElement {
  const chosen = props.check.types ?? [...PII_TYPES];
  const toggle = (type: PiiType, on: boolean) => {
    const types = PII_TYPES.filter((candidate) => (candidate === type ? on : chosen.includes(candidate)));
    // all of them is the default: the spec leaves `types` out
    props.onChange(types.length === PII_TYPES.length ? { kind: "pii" } : { kind: "pii", types });
  };
  return (
    <div className="field">
      <span className="field-label">Look for</span>
      <div className="checkbox-row" data-testid={`${props.testId}-pii-types`}>
        {PII_TYPES.map((type) => {
          const checked = chosen.includes(type);
          return (
            <label key={type} className="check-chip">
              <input
                type="checkbox"
                checked={checked}
                // at least one kind: a pii check looking for nothing is not a check
                disabled={checked && chosen.length === 1}
                data-pii-type={type}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              {PII_LABELS[type]}
            </label>
          );
        })}
      </div>
      <p className="field-hint">
        Rules, not a model: emails and IBANs by format, cards by length and the Luhn check, phone numbers in
        international or grouped form. A number written in words is not found.
      </p>
    </div>
  );
}

function DenyWords(props: {
  check: Extract<GuardCheck, { kind: "deny_words" }>;
  onChange: (check: GuardCheck) => void;
  issuesAt: (field: string) => SpecIssue[];
  testId: string;
}): ReactElement {
  const { check, onChange } = props;
  // one word (or expression) a line; blank lines are dropped, spaces inside a line are kept
  const draft = useDraftText<readonly string[]>({
    value: check.words,
    format: (words) => words.join("\n"),
    parse: (text) => ({
      ok: true,
      value: text
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== ""),
    }),
    isEqual: isSameJson,
    onChange: (words) => onChange({ ...check, words: [...words] }),
  });
  const wordIssues = props.issuesAt("words");
  return (
    <>
      <TextField
        label={check.regex ? "Expressions, one a line" : "Words, one a line"}
        multiline
        rows={3}
        monospace
        value={draft.text}
        placeholder={check.regex ? "internal[- ]only\nproject\\s+falcon" : "confidential\nProject Falcon"}
        hint={
          check.words.length === 0
            ? "Add at least one word."
            : `${check.words.length} ${check.words.length === 1 ? "entry" : "entries"}; a match anywhere in the text fails.`
        }
        testId={`${props.testId}-words`}
        onChange={draft.setText}
      />
      <IssueList issues={wordIssues} />
      <ToggleField
        label="Regular expressions"
        checked={check.regex === true}
        hint="Each line is a JavaScript regular expression."
        testId={`${props.testId}-regex`}
        onChange={(regex) => onChange(withFlag(check, "regex", regex))}
      />
      <ToggleField
        label="Case-sensitive"
        checked={check.caseSensitive === true}
        hint='Off: "Secret" matches "secret".'
        onChange={(on) => onChange(withFlag(check, "caseSensitive", on))}
      />
    </>
  );
}

/** The check with a boolean option on, or without it (its default, false). */
function withFlag<T extends object>(check: T, key: "regex" | "caseSensitive", on: boolean): T {
  const { [key]: _old, ...rest } = check as T & Record<string, unknown>;
  return (on ? { ...rest, [key]: true } : rest) as T;
}
