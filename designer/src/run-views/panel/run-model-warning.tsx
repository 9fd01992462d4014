import type { CredentialsCheckResponse, LlmProblem } from "@waddle/protocol";
import type { ReactElement } from "react";
import { Icon } from "../../components/icon.js";
import { AllowHostButton } from "../../settings/allow-host-button.js";
import { getCredentialsHash, navigateToHash } from "../../settings/settings-route.js";

function FixButton({ problem }: { problem: LlmProblem }): ReactElement | null {
  if (problem.code === "host_not_allowed" && problem.origin)
    return <AllowHostButton list="llm" entry={problem.origin} />;
  if ((problem.code === "no_key" || problem.code === "unknown_credential") && problem.credential)
    return (
      <button
        type="button"
        className="btn btn-small btn-primary"
        data-testid="run-llm-fix"
        onClick={() => navigateToHash(getCredentialsHash({ addLlm: problem.credential! }))}
      >
        Add the key in Credentials…
      </button>
    );
  return null;
}

/**
 * Before Run, in plain words: why the agent's model cannot be used on this server (no key, endpoint not
 * allowed) with the fix a click away, and which http tools call hosts that are not allowed.
 */
export function RunModelWarning({ check }: { check: CredentialsCheckResponse }): ReactElement | null {
  const main = check.llm.filter((problem) => problem.path === "llm");
  const others = check.llm.filter((problem) => problem.path !== "llm");
  if (main.length === 0 && others.length === 0 && check.hosts.length === 0) return null;
  return (
    <div className="run-llm-warning" role="status" data-testid="run-llm-warning">
      {main.length > 0 ? (
        <>
          <div className="run-llm-warning-title">
            <Icon name="alert" size={14} />
            This agent&apos;s model cannot be used on this server
          </div>
          <ul>
            {main.map((problem) => (
              <li key={problem.code}>{problem.message}</li>
            ))}
          </ul>
          <div className="run-llm-warning-actions">
            {main.map((problem) => (
              <FixButton key={problem.code} problem={problem} />
            ))}
          </div>
          <p className="field-hint">
            Fix it and Run uses the agent&apos;s model; or run on the offline model instead, which needs no
            key and follows the agent&apos;s structure.
          </p>
        </>
      ) : null}
      {others.length > 0 || check.hosts.length > 0 ? (
        <>
          <div className="run-llm-warning-title">
            <Icon name="info" size={14} />
            Some tools will fail as things stand
          </div>
          <ul>
            {others.map((problem) => (
              <li key={`${problem.path}:${problem.code}`}>
                {problem.path.replace(/^tools\[\d+\]\.impl\.llm$/, "An llm tool's model")}: {problem.message}{" "}
                <FixButton problem={problem} />
              </li>
            ))}
            {check.hosts.map((host) => (
              <li key={`${host.tool}:${host.host}`} data-testid="run-host-warning">
                {host.message} <AllowHostButton list="http" entry={host.host} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
