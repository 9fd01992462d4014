import type { Trigger, TriggerKind } from "@waddle/protocol";
import { MIN_SCHEDULE_INTERVAL_S } from "@waddle/protocol";
import { useId, useMemo, useState, type ReactElement } from "react";
import { SelectField, TextField, ToggleField } from "../components/fields.js";
import { getCronProblem, type TriggerForm, type TriggerFormErrors } from "../triggers/trigger-form.js";

const CRON_PRESETS: readonly { cron: string; label: string }[] = [
  { cron: "*/10 * * * * *", label: "every 10 s" },
  { cron: "*/15 * * * *", label: "every 15 min" },
  { cron: "0 * * * *", label: "hourly" },
  { cron: "0 9 * * 1-5", label: "weekdays 9:00" },
];

/** Every IANA zone this browser knows, for the time zone box's suggestions. */
function useTimezones(): readonly string[] {
  return useMemo(() => {
    try {
      return Intl.supportedValuesOf("timeZone");
    } catch {
      return [];
    }
  }, []);
}

/** The schedule's fields: cron (with presets and a check as one types), time zone, overlap, catch-up. */
function ScheduleFields(props: {
  form: TriggerForm;
  errors: TriggerFormErrors;
  set: (patch: Partial<TriggerForm>) => void;
}): ReactElement {
  const { form, errors, set } = props;
  const timezones = useTimezones();
  const listId = useId();
  const typedProblem = form.cron.trim() ? getCronProblem(form.cron) : null;
  return (
    <>
      <TextField
        label="Cron"
        value={form.cron}
        monospace
        testId="trigger-cron"
        placeholder="*/10 * * * *"
        error={errors.cron ?? typedProblem}
        hint={`minute hour day month weekday, or seconds first (6 fields); at most every ${MIN_SCHEDULE_INTERVAL_S} s.`}
        onChange={(cron) => set({ cron })}
      />
      <div className="trigger-presets" role="group" aria-label="Common schedules">
        {CRON_PRESETS.map((preset) => (
          <button
            key={preset.cron}
            type="button"
            className={`chip${form.cron === preset.cron ? " is-active" : ""}`}
            title={preset.cron}
            onClick={() => set({ cron: preset.cron })}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <div className={`field${errors.timezone ? " field-invalid" : ""}`}>
        <label className="field-label" htmlFor={`${listId}-tz`}>
          Time zone
        </label>
        <input
          id={`${listId}-tz`}
          className="input"
          list={listId}
          value={form.timezone}
          data-testid="trigger-timezone"
          onChange={(event) => set({ timezone: event.target.value })}
        />
        <datalist id={listId}>
          {timezones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        {errors.timezone ? (
          <p className="field-error" role="alert">
            {errors.timezone}
          </p>
        ) : (
          <p className="field-hint">The cron&apos;s hours are this zone&apos;s (daylight saving included).</p>
        )}
      </div>
      <div className="field-grid">
        <SelectField
          label="If the last run is still going"
          value={form.overlap}
          testId="trigger-overlap"
          options={[
            { value: "skip", label: "Skip this fire" },
            { value: "queue", label: "Queue it after" },
            { value: "allow", label: "Run both" },
          ]}
          onChange={(overlap) => set({ overlap })}
        />
        <SelectField
          label="Fires missed while down"
          value={form.catchUp}
          testId="trigger-catch-up"
          options={[
            { value: "none", label: "Let them go" },
            { value: "last", label: "Fire the last one at start" },
          ]}
          onChange={(catchUp) => set({ catchUp })}
        />
      </div>
    </>
  );
}

/**
 * A trigger's form: the kind (new ones only), name, the schedule's or webhook's own fields, the query, the
 * channel, and on/off; Save sends it (errors land on their field).
 */
export function TriggerEditor(props: {
  initial: TriggerForm;
  saved: Trigger | null;
  disabled: boolean;
  onKindChange?: (kind: TriggerKind) => void;
  onSave: (form: TriggerForm) => Promise<TriggerFormErrors | null>;
}): ReactElement {
  const [form, setForm] = useState(props.initial);
  const [errors, setErrors] = useState<TriggerFormErrors>({});
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<TriggerForm>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setErrors((previous) => {
      const next = { ...previous };
      for (const key of Object.keys(patch)) delete next[key as keyof TriggerForm];
      return next;
    });
  };
  const save = async () => {
    setBusy(true);
    const refused = await props.onSave(form);
    setBusy(false);
    setErrors(refused ?? {});
  };
  return (
    <form
      className="trigger-editor"
      aria-label={props.saved ? "Edit the trigger" : "New trigger"}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <fieldset disabled={props.disabled} className="trigger-editor-fields">
        {props.saved ? null : (
          <SelectField
            label="Kind"
            value={form.kind}
            testId="trigger-kind"
            options={[
              { value: "schedule", label: "Schedule: on a cron" },
              { value: "webhook", label: "Webhook: when a request arrives" },
            ]}
            onChange={(kind) => props.onKindChange?.(kind)}
          />
        )}
        <TextField
          label="Name"
          value={form.name}
          placeholder={form.kind === "schedule" ? "Morning digest" : "New ticket"}
          testId="trigger-name"
          error={errors.name}
          onChange={(name) => set({ name })}
        />
        {form.kind === "schedule" ? <ScheduleFields form={form} errors={errors} set={set} /> : null}
        <TextField
          label={form.kind === "webhook" ? "Query template" : "Query"}
          value={form.query}
          multiline
          rows={3}
          testId="trigger-query"
          error={errors.query}
          hint={
            form.kind === "webhook"
              ? "{{body.subject}} fills from the request's JSON; a request without a field the query reads is refused (422)."
              : "What each fired run is asked."
          }
          onChange={(query) => set({ query })}
        />
        {form.kind === "webhook" ? (
          <div className="field-grid">
            <SelectField
              label="Secret"
              value={form.secretMode}
              testId="trigger-secret-mode"
              options={[
                { value: "hmac", label: "Signed (HMAC)" },
                { value: "bearer", label: "Bearer token" },
              ]}
              onChange={(secretMode) => set({ secretMode })}
            />
            <TextField
              label="Event id field"
              value={form.idempotencyField}
              placeholder="id"
              testId="trigger-idempotency-field"
              error={errors.idempotencyField}
              hint="A redelivered body with the same value starts one run (besides Idempotency-Key)."
              onChange={(idempotencyField) => set({ idempotencyField })}
            />
          </div>
        ) : null}
        <TextField
          label="Channel"
          value={form.channel}
          placeholder="production, else the latest save"
          testId="trigger-channel"
          error={errors.channel}
          onChange={(channel) => set({ channel: channel.trim() })}
        />
        {props.saved ? null : (
          <ToggleField
            label="On"
            checked={form.enabled}
            hint="Off: saved, but it does not fire until turned on."
            testId="trigger-enabled"
            onChange={(enabled) => set({ enabled })}
          />
        )}
        <div className="trigger-editor-actions">
          <button type="submit" className="btn btn-primary" data-testid="trigger-save" disabled={busy}>
            {props.saved ? "Save changes" : "Create trigger"}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
