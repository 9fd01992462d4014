/** What stands in for the server's token where a snippet cannot read it from the environment. */
export const TOKEN_PLACEHOLDER = "<WADDLE_TOKEN>";

/** The CLI script, relative to a Waddle checkout: the CLI is not published to npm. */
export const CLI_SCRIPT = "apps/cli/bin/waddle.mjs";

/**
 * How a snippet is used: `shell` is pasted into bash or zsh as it is, `node-module` is saved as `ask.mjs` in a
 * project that has the `openai` package and run with `node ask.mjs`, `mcp-config` goes into an MCP client's
 * configuration.
 */
export type UseSnippetKind = "shell" | "node-module" | "mcp-config";

export interface UseSnippet {
  id: "curl" | "openai" | "mcp" | "cli";
  title: string;
  hint: string;
  kind: UseSnippetKind;
  text: string;
}

/** `text` as one shell word, quoted only when it needs to be (bash and zsh alike). */
export function quoteForShell(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * The ways to call an agent from code on this server (`origin`): curl on `POST /api/runs`, the `openai` SDK
 * on `/v1/chat/completions`, an MCP client's configuration, and the CLI. Every shell snippet works pasted
 * into a shell in any folder: the CLI runs from `cliPath` (the server's own checkout, from `/api/health`),
 * never through npx, which would fetch an unrelated npm package named `waddle`. With a token, the shell
 * snippets and the SDK read it from `WADDLE_TOKEN`; the MCP configuration holds `<WADDLE_TOKEN>`.
 */
export function getUseSnippets(options: {
  origin: string;
  agentId: string;
  query: string;
  authRequired: boolean;
  /** The absolute path of the server's CLI script; unknown, the CLI snippet runs from a checkout's root. */
  cliPath?: string | undefined;
}): UseSnippet[] {
  const { origin, agentId, authRequired } = options;
  const body = JSON.stringify({ agentId, query: options.query });
  const auth = authRequired ? ` \\\n  -H "authorization: Bearer $WADDLE_TOKEN"` : "";
  // One argument a line: a wrapped line must not split `--server` from its dash.
  const cliCommand = [
    `node ${quoteForShell(options.cliPath ?? CLI_SCRIPT)} run ${quoteForShell(agentId)}`,
    `  ${quoteForShell(options.query)}`,
    `  --server ${quoteForShell(origin)}`,
  ].join(" \\\n");
  return [
    {
      id: "curl",
      title: "curl",
      hint: "Starts a run (202 with its runId), then reads its events so far.",
      kind: "shell",
      text: [
        `answer=$(curl -sS -X POST ${quoteForShell(`${origin}/api/runs`)}${auth} \\`,
        `  -H 'content-type: application/json' \\`,
        `  -d ${quoteForShell(body)})`,
        `echo "$answer"`,
        `run_id=$(echo "$answer" | sed -nE 's/.*"runId":"([^"]+)".*/\\1/p')`,
        `curl -sS${authRequired ? ` -H "authorization: Bearer $WADDLE_TOKEN"` : ""} "${origin}/api/runs/$run_id/events"`,
      ].join("\n"),
    },
    {
      id: "openai",
      title: "OpenAI SDK",
      hint: "The agent is a model of this server's OpenAI-compatible API. Save as ask.mjs in a project with the openai package, then run node ask.mjs.",
      kind: "node-module",
      text:
        `import OpenAI from "openai";\n\n` +
        `const client = new OpenAI({ baseURL: ${JSON.stringify(`${origin}/v1`)}, apiKey: ${authRequired ? "process.env.WADDLE_TOKEN" : '"no-key-needed"'} });\n` +
        `const completion = await client.chat.completions.create({\n` +
        `  model: ${JSON.stringify(agentId)},\n  messages: [{ role: "user", content: ${JSON.stringify(options.query)} }],\n});\n` +
        `console.log(completion.choices[0].message.content);`,
    },
    {
      id: "mcp",
      title: "MCP client",
      hint: `Every saved agent is a tool of this server's MCP endpoint; this one is "${agentId}".`,
      kind: "mcp-config",
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
      hint: options.cliPath
        ? `Runs the agent on this server and prints its events live, with the CLI of this server's checkout (it is not on npm: npx waddle would fetch another package).${authRequired ? " It reads WADDLE_TOKEN." : ""}`
        : `Run it from the root of a Waddle checkout: the CLI is not on npm (npx waddle would fetch another package), and this server did not say where its own is.${authRequired ? " It reads WADDLE_TOKEN." : ""}`,
      kind: "shell",
      text: cliCommand,
    },
  ];
}
