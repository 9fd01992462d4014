import type { ShowSteps } from "@waddle/protocol";
import type { ReactElement } from "react";
import { FieldFrame, SelectField, TextField, ToggleField } from "../components/fields.js";
import type { PublishForm, PublishFormErrors } from "./publish-form.js";

const SHOW_STEPS_OPTIONS: readonly { value: ShowSteps; label: string }[] = [
  { value: "none", label: "Answers only" },
  { value: "names", label: "Tool names under each answer" },
  { value: "full", label: "Full steps: tool inputs and results" },
];

const DEFAULT_ACCENT = "#4f46e5";

/** The accent: a colour picker and its hex text, kept in step. */
function AccentField(props: { value: string; error?: string; onChange(value: string): void }): ReactElement {
  const valid = /^#[0-9a-fA-F]{6}$/.test(props.value);
  return (
    <FieldFrame label="Accent colour" hint="Buttons and your visitors' messages." error={props.error ?? null}>
      {(id) => (
        <div className="publish-accent">
          <input
            type="color"
            aria-label="Pick the accent colour"
            value={valid ? props.value : DEFAULT_ACCENT}
            onChange={(event) => props.onChange(event.target.value)}
          />
          <input
            id={id}
            className="input mono"
            value={props.value}
            placeholder={DEFAULT_ACCENT}
            data-testid="publish-accent"
            onChange={(event) => props.onChange(event.target.value)}
          />
        </div>
      )}
    </FieldFrame>
  );
}

/** The Publish dialog's settings: what visitors see, who may embed it, and how much they may ask. */
export function PublishSettingsFields(props: {
  form: PublishForm;
  errors: PublishFormErrors;
  onChange(patch: Partial<PublishForm>): void;
}): ReactElement {
  const { form, errors, onChange } = props;
  const anyOrigin = form.allowedOrigins.split("\n").some((line) => line.trim() === "*");
  return (
    <div className="publish-fields">
      <ToggleField
        label="Public chat on"
        hint="On: the link and embeds answer visitors. Off: every public address of this chat answers 404."
        checked={form.enabled}
        testId="publish-enabled"
        onChange={(enabled) => onChange({ enabled })}
      />
      <TextField
        label="Title"
        value={form.title}
        error={errors.title ?? null}
        testId="publish-title"
        onChange={(title) => onChange({ title })}
      />
      <TextField
        label="Welcome message"
        hint="Shown before the first message; Markdown."
        multiline
        rows={2}
        value={form.welcome}
        error={errors.welcome ?? null}
        testId="publish-welcome"
        onChange={(welcome) => onChange({ welcome })}
      />
      <TextField
        label="Starters"
        hint="Questions a visitor can send with one click: one a line, up to 6."
        multiline
        rows={3}
        value={form.starters}
        error={errors.starters ?? null}
        testId="publish-starters"
        onChange={(starters) => onChange({ starters })}
      />
      <TextField
        label="Allowed origins"
        hint="Sites that may embed the chat, one origin a line: https://example.com, http://localhost:5173. The share link works without any."
        multiline
        rows={3}
        monospace
        placeholder="https://example.com"
        value={form.allowedOrigins}
        error={errors.allowedOrigins ?? null}
        testId="publish-origins"
        onChange={(allowedOrigins) => onChange({ allowedOrigins })}
      />
      {anyOrigin ? (
        <label className={`publish-any-origin${errors.allowAnyOrigin ? " is-invalid" : ""}`}>
          <input
            type="checkbox"
            checked={form.allowAnyOrigin}
            data-testid="publish-any-origin"
            onChange={(event) => onChange({ allowAnyOrigin: event.currentTarget.checked })}
          />
          <span>
            <strong>Any site may embed this chat</strong> (*): pages anywhere can put it in front of their
            visitors, on your rate limits.
            {errors.allowAnyOrigin ? (
              <span className="field-error" role="alert">
                {errors.allowAnyOrigin}
              </span>
            ) : null}
          </span>
        </label>
      ) : null}
      <SelectField
        label="Steps under each answer"
        value={form.showSteps}
        options={SHOW_STEPS_OPTIONS}
        testId="publish-show-steps"
        onChange={(showSteps) => onChange({ showSteps })}
      />
      <TextField
        label="Channel"
        hint="The version visitors get: production (the latest save until there is a release), or another channel."
        placeholder="production"
        value={form.channel}
        error={errors.channel ?? null}
        testId="publish-channel"
        onChange={(channel) => onChange({ channel })}
      />
      <div className="publish-row">
        <TextField
          label="Per visitor"
          hint="Messages, e.g. 20/min"
          placeholder="20/min"
          value={form.rateLimit}
          error={errors.rateLimit ?? null}
          testId="publish-rate-limit"
          onChange={(rateLimit) => onChange({ rateLimit })}
        />
        <TextField
          label="Whole chat"
          hint="All visitors, e.g. 600/h"
          placeholder="no limit"
          value={form.chatRateLimit}
          error={errors.chatRateLimit ?? null}
          testId="publish-chat-rate-limit"
          onChange={(chatRateLimit) => onChange({ chatRateLimit })}
        />
        <TextField
          label="Per conversation"
          hint="Messages, then a new one"
          placeholder="no limit"
          value={form.maxTurns}
          error={errors.maxTurns ?? null}
          testId="publish-max-turns"
          onChange={(maxTurns) => onChange({ maxTurns })}
        />
      </div>
      <div className="publish-row">
        <AccentField
          value={form.accent}
          {...(errors.accent ? { error: errors.accent } : {})}
          onChange={(accent) => onChange({ accent })}
        />
        <TextField
          label="Logo URL"
          hint="A square image, https."
          placeholder="https://example.com/logo.png"
          value={form.logoUrl}
          error={errors.logoUrl ?? null}
          testId="publish-logo"
          onChange={(logoUrl) => onChange({ logoUrl })}
        />
      </div>
    </div>
  );
}
