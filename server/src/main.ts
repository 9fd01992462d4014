// `node server/dist/main.js` (what `npm start` runs): settings from the environment, then serve.
import { ConfigError, readServerConfig } from "./config.js";
import { createWaddleServer } from "./server.js";

async function main(): Promise<void> {
  let config;
  try {
    config = readServerConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Waddle cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const server = await createWaddleServer({
    port: config.port,
    host: config.host,
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    ...(config.redisUrl
      ? { redisUrl: config.redisUrl, role: config.role, runLeaseMs: config.runLeaseMs }
      : {}),
    httpAllow: config.httpAllow,
    secrets: config.secrets,
    llmAllow: config.llmAllow,
    llmKeyEnvs: config.llmKeyEnvs,
    ...(config.prices ? { prices: config.prices } : {}),
    ...(config.mcpServers ? { mcpServers: config.mcpServers } : {}),
    maxConcurrentRuns: config.maxConcurrentRuns,
    ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
    env: process.env,
    ...(config.token ? { token: config.token } : {}),
    ...(config.toolsDir ? { toolsDir: config.toolsDir } : {}),
    ...(config.corsOrigin ? { corsOrigin: config.corsOrigin } : {}),
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
  });
  const model = server.offline
    ? "the embedded offline model (no OPENAI_API_KEY set; agents run deterministically without a network)"
    : `OpenAI-compatible endpoint ${process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"} for agents with provider "openai"`;
  process.stdout.write(`Waddle listening on ${server.url}\n`);
  process.stdout.write(`  LLM: ${model}\n`);
  process.stdout.write(
    `  LLM keys: from the environment (OPENAI_API_KEY), or add them in the browser: Credentials, ${server.url}/#/settings/credentials\n`,
  );
  process.stdout.write(
    `  data: ${config.databaseUrl ? "PostgreSQL (WADDLE_DATABASE_URL)" : config.dataDir} · tools: ${server.registry.list().length} module tools · auth: ${config.token ? "token required" : "none (127.0.0.1 only)"}\n`,
  );
  if (config.redisUrl) {
    const does = { all: "serves the API and runs runs", api: "serves the API only", worker: "runs runs" }[
      config.role
    ];
    process.stdout.write(
      `  queue mode (WADDLE_REDIS_URL): role ${config.role}, ${does} · claims last ${config.runLeaseMs} ms\n`,
    );
  }
  if (config.rateLimit)
    process.stdout.write(`  rate limit (WADDLE_RATE_LIMIT): ${config.rateLimit} per key and per agent\n`);
  if (config.httpAllow.length > 0)
    process.stdout.write(`  http tools may reach: ${config.httpAllow.join(", ")}\n`);
  if (config.llmAllow.length > 0 || config.llmKeyEnvs.length > 0) {
    const extra = [...config.llmAllow, ...config.llmKeyEnvs].join(", ");
    process.stdout.write(`  specs may also use LLM endpoints / keys: ${extra}\n`);
  }
  if (config.prices)
    process.stdout.write(`  prices: ${Object.keys(config.prices).length} model(s) from WADDLE_PRICES\n`);
  if (config.mcpServers) {
    const names = config.mcpServers.map((server) => `${server.name} (${server.transport})`).join(", ");
    process.stdout.write(`  MCP servers, started on first use: ${names}\n`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping Waddle (running runs are marked interrupted)…\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Waddle failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
