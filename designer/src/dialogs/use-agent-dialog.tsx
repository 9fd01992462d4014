import type { ReactElement } from "react";
import { Dialog } from "../components/dialog.js";
import { Icon } from "../components/icon.js";
import { useDocument, useEditor, useServer } from "../editor/editor-context.js";

/** What stands in for the server's token in snippets: never the token itself. */
export const TOKEN_PLACEHOLDER = "<WADDLE_TOKEN>";

export interface UseSnippet {
  id: "curl" | "openai" | "mcp" | "cli";
  title: string;
  hint: string;
  text: string;
}

/**
 * The ways to call an agent from code, for this server's address: curl on `POST /api/runs`, the `openai`
 * SDK on `/v1/chat/completions`, an MCP client's configuration, and the CLI. With a token, each carries
 * `<WADDLE_TOKEN>` where it goes.
 */
export function getUseSnippets(options: {
  origin: string;
  agentId: string;
  query: string;
  authRequired: boolean;
}): UseSnippet[] {
  const { origin, agentId, authRequired } = options;
  const query = JSON.stringify(options.query);
  const body = JSON.stringify({ agentId, query: options.query });
  const shellBody = `'${body.replaceAll("'", "'\\''")}'`;
  const auth = authRequired ? `  -H 'authorization: Bearer ${TOKEN_PLACEHOLDER}' \\\n` : "";
  const followAuth = authRequired ? ` -H 'authorization: Bearer ${TOKEN_PLACEHOLDER}'` : "";
  return [
    {
      id: "curl",
      title: "curl",
      hint: "Starts a run (202 with its runId), then reads its events.",
      text:
        `curl -X POST ${origin}/api/runs \\\n  -H 'content-type: application/json' \\\n${auth}  -d ${shellBody}\n\n` +
        `curl${followAuth} ${origin}/api/runs/<runId>/events`,
    },
    {
      id: "openai",
      title: "OpenAI SDK",
      hint: "The agent is a model of this server's OpenAI-compatible API (npm install openai).",
      text:
        `import OpenAI from "openai";\n\n` +
        `const client = new OpenAI({ baseURL: "${origin}/v1", apiKey: "${authRequired ? TOKEN_PLACEHOLDER : "no-key-needed"}" });\n` +
        `const completion = await client.chat.completions.create({\n` +
        `  model: "${agentId}",\n  messages: [{ role: "user", content: ${query} }],\n});\n` +
        `console.log(completion.choices[0].message.content);`,
    },
    {
      id: "mcp",
      title: "MCP client",
      hint: `Every saved agent is a tool of this server's MCP endpoint; this one is "${agentId}".`,
      text: JSON.stringify(
        {
          mcpServers: {
            waddle: {
              url: `${origin}/mcp`,
              ...(authRequired ? { headers: { Authorization: `Bearer ${TOKEN_PLACEHOLDER}` } } : {}),
            },
          },
        },
        null,
        2,
      ),
    },
    {
      id: "cli",
      title: "CLI",
      hint: "Runs the agent on this server and prints its events live.",
      text: `npx waddle run ${agentId} ${query} --server ${origin}${authRequired ? ` --token ${TOKEN_PLACEHOLDER}` : ""}`,
    },
  ];
}

/** **Use**: how to call the open agent from code, each snippet with a copy button. */
export function UseAgentDialog({ close }: { close: () => void }): ReactElement {
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId);
  const sample = useDocument((state) => state.spec.sampleQueries[0]);
  const authRequired = useServer((state) => state.health?.authRequired === true);
  const copy = async (snippet: UseSnippet) => {
    try {
      await navigator.clipboard.writeText(snippet.text);
      editor.ui.getState().notify("success", `Copied the ${snippet.title} snippet.`);
    } catch {
      editor.ui
        .getState()
        .notify("error", "The browser refused the clipboard: select the text and copy it by hand.");
    }
  };
  if (agentId === null) {
    return (
      <Dialog title="Use this agent" testId="use-dialog" onClose={close}>
        <p className="explain">Save the agent first: code calls a saved agent by its id.</p>
      </Dialog>
    );
  }
  const snippets = getUseSnippets({
    origin: window.location.origin,
    agentId,
    query: sample ?? "What can you do?",
    authRequired,
  });
  return (
    <Dialog title="Use this agent" size="large" testId="use-dialog" onClose={close}>
      <p className="explain">
        Call “{agentId}” from code on this server ({window.location.origin}). Runs use its latest saved
        version.
        {authRequired
          ? ` Replace ${TOKEN_PLACEHOLDER} with the server's token.`
          : " This server needs no token."}
      </p>
      <div className="use-snippets">
        {snippets.map((snippet) => (
          <section key={snippet.id} className="use-snippet" data-testid={`use-snippet-${snippet.id}`}>
            <header className="use-snippet-head">
              <h3>{snippet.title}</h3>
              <span className="use-snippet-hint">{snippet.hint}</span>
              <button
                type="button"
                className="btn btn-small"
                data-testid={`use-copy-${snippet.id}`}
                onClick={() => void copy(snippet)}
              >
                <Icon name="copy" size={14} />
                Copy
              </button>
            </header>
            <pre className="mono use-snippet-text">{snippet.text}</pre>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
