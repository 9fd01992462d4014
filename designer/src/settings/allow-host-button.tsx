import type { ReactElement } from "react";
import { getCredentialsHash, navigateToHash } from "./settings-route.js";

/**
 * "Allow host…": opens the Credentials page with the host filled in on its allow-list, for the person to
 * add it (a deliberate act, never a click that allows it unseen). For validation issues and run warnings
 * about an http tool's host (`list: "http"`) or an LLM endpoint (`list: "llm"`, an origin).
 */
export function AllowHostButton(props: { list: "http" | "llm"; entry: string }): ReactElement {
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="allow-host"
      title={`Open Credentials to allow ${props.entry} for ${props.list === "http" ? "http tools" : "LLM endpoints"}`}
      onClick={(event) => {
        event.stopPropagation();
        navigateToHash(getCredentialsHash({ allow: props }));
      }}
    >
      Allow host…
    </button>
  );
}
