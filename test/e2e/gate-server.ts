import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJson, protoSafeReviver, renderTemplate } from "@waddle/protocol";

/**
 * The e2e stack's gates: tools that answer only when the test says so, so that a spec can look at a tool
 * while it runs, or click Cancel during it, without betting on a latency. Global setup starts two servers:
 *
 * - the tool side (`toolURL`, on the e2e server's http allow-list): any request to `/gates/<key>` waits
 *   while gate `<key>` is closed (every gate starts closed) and, once it is open, is answered with the
 *   gate's answer rendered against the request's JSON body as `args` (the `{{args.x}}` templates of mock
 *   outputs); a request that arrives at an open gate is answered at once;
 * - the control side (`controlURL`, for the specs only): `POST /gates/<key>/open` (body `{answer?}`),
 *   `POST /gates/<key>/close`, and `GET /gates/<key>`, which says what the gate saw (`GateState`).
 *
 * Specs use it through `gates.ts`; the http tools and the MCP fixture's `gate` tool call the tool side.
 */

/** What one gate saw. `waiting` counts the calls held now; `cancelled`, those whose caller went away. */
export interface GateState {
  open: boolean;
  calls: number;
  waiting: number;
  answered: number;
  cancelled: number;
}

export interface GateServer {
  /** `http://127.0.0.1:<port>`: what gated tools call. */
  toolURL: string;
  /** `http://127.0.0.1:<port>`: where specs open and close gates. */
  controlURL: string;
  close(): Promise<void>;
}

interface Gate {
  state: GateState;
  answer: unknown;
  held: Set<() => void>;
}

const GATE_PATH = /^\/gates\/([A-Za-z0-9_.:-]{1,200})(?:\/(open|close))?$/;

/** Starts both sides of the gates (global setup). */
export async function startGateServer(): Promise<GateServer> {
  const gates = new Map<string, Gate>();
  const getGate = (key: string): Gate => {
    let gate = gates.get(key);
    if (!gate) {
      gate = {
        state: { open: false, calls: 0, waiting: 0, answered: 0, cancelled: 0 },
        answer: {},
        held: new Set(),
      };
      gates.set(key, gate);
    }
    return gate;
  };

  const tools = createServer((request, response) => {
    void readBody(request).then((body) => {
      const match = GATE_PATH.exec(request.url ?? "");
      if (!match?.[1] || match[2]) return reply(response, 404, { error: `no gate at ${request.url}` });
      const gate = getGate(match[1]);
      gate.state.calls += 1;
      const parsed =
        body === "" ? { ok: true as const, value: {} } : parseJson(body, { reviver: protoSafeReviver });
      const args = parsed.ok ? parsed.value : {};
      const answer = () => {
        gate.state.answered += 1;
        reply(response, 200, renderTemplate(gate.answer, { args }));
      };
      if (gate.state.open) return answer();
      const release = () => {
        gate.held.delete(release);
        gate.state.waiting -= 1;
        answer();
      };
      gate.held.add(release);
      gate.state.waiting += 1;
      // The caller gave up (a cancelled run, a timeout): the call no longer waits.
      response.once("close", () => {
        if (!gate.held.delete(release)) return;
        gate.state.waiting -= 1;
        gate.state.cancelled += 1;
      });
    });
  });

  const control = createServer((request, response) => {
    void readBody(request).then((body) => {
      const match = GATE_PATH.exec(request.url ?? "");
      if (!match?.[1]) return reply(response, 404, { error: `no route ${request.method} ${request.url}` });
      const gate = getGate(match[1]);
      if (request.method === "GET" && !match[2]) return reply(response, 200, gate.state);
      if (request.method === "POST" && match[2] === "close") {
        gate.state.open = false;
        return reply(response, 200, gate.state);
      }
      if (request.method === "POST" && match[2] === "open") {
        const parsed = body === "" ? undefined : parseJson(body, { reviver: protoSafeReviver });
        if (parsed && !parsed.ok) return reply(response, 400, { error: parsed.error });
        const options = (parsed?.value ?? {}) as { answer?: unknown };
        if (options.answer !== undefined) gate.answer = options.answer;
        gate.state.open = true;
        for (const release of [...gate.held]) release();
        return reply(response, 200, gate.state);
      }
      reply(response, 404, { error: `no route ${request.method} ${request.url}` });
    });
  });

  const [toolPort, controlPort] = await Promise.all([listen(tools), listen(control)]);
  return {
    toolURL: `http://127.0.0.1:${toolPort}`,
    controlURL: `http://127.0.0.1:${controlPort}`,
    close: async () => {
      await Promise.all([stop(tools), stop(control)]);
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", () => resolve(""));
  });
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
