import type { AgentSpec, CredentialsCheckResponse } from "@waddle/protocol";
import { useEffect, useState } from "react";
import { useDocument, useEditor } from "../../editor/editor-context.js";

/** What the server says Run would meet for the open agent; null until it answers (or when it cannot). */
export function useCredentialsCheck(): CredentialsCheckResponse | null {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const [check, setCheck] = useState<{ spec: AgentSpec; answer: CredentialsCheckResponse } | null>(null);
  const [round, setRound] = useState(0);
  // Back from the Credentials page (or another tab), the answer may have changed.
  useEffect(() => {
    const again = () => setRound((value) => value + 1);
    window.addEventListener("focus", again);
    window.addEventListener("hashchange", again);
    return () => {
      window.removeEventListener("focus", again);
      window.removeEventListener("hashchange", again);
    };
  }, []);
  useEffect(() => {
    let current = true;
    const timer = window.setTimeout(() => {
      editor.api.checkCredentials(spec).then(
        (answer) => current && setCheck({ spec, answer }),
        // An invalid draft or a server without the check: the panel says nothing rather than guess.
        () => current && setCheck(null),
      );
    }, 250);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [editor, spec, round]);
  return check?.answer ?? null;
}
