// `npm run dev`: the server from TypeScript sources (restarts on change) and the designer's Vite dev
// server, which proxies /api and /socket.io to it.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const apiPort = process.env.PORT ?? "8787";
const children = [
  spawn("npx", ["tsx", "watch", "--conditions=source", "server/src/main.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PORT: apiPort },
  }),
  spawn("npx", ["vite", "--config", "designer/vite.config.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, WADDLE_API_URL: `http://127.0.0.1:${apiPort}` },
  }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
children.forEach((child) => child.on("exit", (code) => (stop("SIGTERM"), process.exit(code ?? 0))));
