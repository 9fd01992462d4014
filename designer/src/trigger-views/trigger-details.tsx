import type { Trigger, TriggerFire } from "@waddle/protocol";
import type { ReactElement } from "react";
import { CopyButton } from "../components/copy-button.js";
import { getCurlExample } from "../triggers/get-curl-example.js";
import { getFireLabel, getHookUrl } from "../triggers/describe-trigger.js";
import { getAgentRouteHash } from "../run-views/run-route.js";
import { formatStartTime } from "../util/format-time.js";

/** A time in the schedule's own zone (what the cron means) and, when it differs, in the browser's. */
function formatFireTime(iso: string, timezone: string): { zoned: string; local: string | null } {
  const date = new Date(iso);
  const options: Intl.DateTimeFormatOptions = {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  };
  const zoned = date.toLocaleString("en-GB", { ...options, timeZone: timezone });
  const local = date.toLocaleString("en-GB", options);
  return { zoned, local: local === zoned ? null : local };
}

/** A schedule's next five fire times, as the server computed them when it answered. */
export function NextFires({ trigger }: { trigger: Extract<Trigger, { kind: "schedule" }> }): ReactElement {
  return (
    <section className="trigger-section" aria-label="Next fire times">
      <h3>Next fires</h3>
      {trigger.enabled && trigger.nextFires.length > 0 ? (
        <ol className="trigger-next-fires" data-testid="trigger-next-fires">
          {trigger.nextFires.slice(0, 5).map((iso) => {
            const time = formatFireTime(iso, trigger.timezone);
            return (
              <li key={iso}>
                <time dateTime={iso}>{time.zoned}</time>
                <span className="trigger-muted">
                  {" "}
                  {trigger.timezone}
                  {time.local ? ` · ${time.local} here` : ""}
                </span>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="trigger-muted" data-testid="trigger-next-fires">
          {trigger.enabled ? "The server lists none." : "Off: it does not fire until it is turned on."}
        </p>
      )}
    </section>
  );
}

/** A webhook's URL with Copy, its secret once (just created), and a curl example that signs as it must. */
export function WebhookInfo(props: {
  trigger: Extract<Trigger, { kind: "webhook" }>;
  secret: string | null;
}): ReactElement {
  const { trigger, secret } = props;
  const url = getHookUrl(window.location.origin, trigger.hookPath);
  const curl = getCurlExample({
    url,
    secretMode: trigger.secretMode,
    query: trigger.query,
    secret,
    idempotencyField: trigger.idempotencyField ?? null,
  });
  return (
    <section className="trigger-section" aria-label="How to call it">
      <h3>Call it</h3>
      <div className="trigger-copy-row">
        <code className="mono trigger-url" data-testid="trigger-url">
          {url}
        </code>
        <CopyButton text={url} what="webhook URL" testId="trigger-copy-url" />
      </div>
      {secret ? (
        <div className="trigger-secret" role="status">
          <strong>The secret, shown this once: copy it now.</strong>
          <div className="trigger-copy-row">
            <code className="mono" data-testid="trigger-secret">
              {secret}
            </code>
            <CopyButton text={secret} what="secret" testId="trigger-copy-secret" />
          </div>
        </div>
      ) : (
        <p className="trigger-muted">
          The secret was shown once, when the trigger was created. Lost it? Delete the trigger and make a new
          one.
        </p>
      )}
      <p className="trigger-muted">
        {trigger.secretMode === "hmac"
          ? "Sign each request: Waddle-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of “<t>.<raw body>”>, within 5 minutes."
          : "Send the secret as a bearer token."}{" "}
        The JSON body fills the query&apos;s {"{{body.…}}"} and goes into the run&apos;s context.
      </p>
      <div className="trigger-curl-head">
        <span className="field-label">curl</span>
        <CopyButton text={curl} what="curl example" testId="trigger-copy-curl" />
      </div>
      <pre className="trigger-curl mono" data-testid="trigger-curl">
        {curl}
      </pre>
    </section>
  );
}

/** The trigger's last fires: when, what became of each, and a link to its run. */
export function TriggerFires(props: {
  agentId: string;
  fires: readonly TriggerFire[] | undefined;
  onOpenRun: (runId: string) => void;
}): ReactElement {
  const { fires } = props;
  return (
    <section className="trigger-section" aria-label="Last fires">
      <h3>Last fires</h3>
      <ul className="trigger-fires" data-testid="trigger-fires" data-count={fires?.length ?? 0}>
        {fires === undefined ? (
          <li className="trigger-muted">Reading…</li>
        ) : fires.length === 0 ? (
          <li className="trigger-muted">It has not fired yet.</li>
        ) : (
          fires.slice(0, 10).map((fire) => (
            <li key={fire.id} className={`trigger-fire is-${fire.status}`} data-status={fire.status}>
              <time dateTime={fire.firedAt}>{formatStartTime(fire.firedAt)}</time>
              <span>{getFireLabel(fire)}</span>
              {fire.runId ? (
                <a
                  href={getAgentRouteHash({ agentId: props.agentId, runId: fire.runId })}
                  title="Open this run on the canvas"
                  className="trigger-fire-run"
                  data-testid="trigger-fire-run"
                  onClick={(event) => {
                    event.preventDefault();
                    props.onOpenRun(fire.runId!);
                  }}
                >
                  {fire.runId}
                </a>
              ) : null}
            </li>
          ))
        )}
      </ul>
    </section>
  );
}
