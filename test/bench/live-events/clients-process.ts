import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { FromClients, type ClientRecord, type ToClients } from "./client-messages.js";
import { preciseNow } from "./precise-now.js";

const CHILD = fileURLToPath(new URL("./socket-clients.ts", import.meta.url));

type Reply = Exclude<FromClients, { type: "error" }>;

/** The socket clients' process, driven over IPC. */
export class ClientsProcess {
  private waiting: {
    type: Reply["type"];
    resolve: (reply: Reply) => void;
    reject: (error: Error) => void;
  }[] = [];

  private constructor(private readonly child: ChildProcess) {
    child.on("message", (raw) => {
      const message = FromClients.parse(raw);
      if (message.type === "error") {
        for (const waiter of this.waiting.splice(0))
          waiter.reject(new Error(`socket clients: ${message.message}`));
        return;
      }
      const index = this.waiting.findIndex((waiter) => waiter.type === message.type);
      if (index >= 0) this.waiting.splice(index, 1)[0]!.resolve(message);
    });
    child.on("exit", (code) => {
      for (const waiter of this.waiting.splice(0))
        waiter.reject(new Error(`socket clients exited (${code})`));
    });
  }

  /** Forks the process (same loader flags as this one), connects `clients` sockets, and waits until all are up. */
  static async start(url: string, clients: number): Promise<ClientsProcess> {
    const child = fork(CHILD, [url, String(clients)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const started = new ClientsProcess(child);
    await started.next("ready");
    return started;
  }

  /**
   * The clients' clock minus this one, from the ping with the shortest round trip (its error is at most
   * half that round trip, which is returned too).
   */
  async measureClockOffset(pings = 30): Promise<{ offsetMs: number; errorMs: number }> {
    let best = { offsetMs: 0, errorMs: Infinity };
    for (let index = 0; index < pings; index += 1) {
      const t0 = preciseNow();
      const reply = this.next("pong");
      this.send({ type: "ping", t0 });
      const pong = (await reply) as Extract<Reply, { type: "pong" }>;
      const t1 = preciseNow();
      const errorMs = (t1 - t0) / 2;
      if (errorMs < best.errorMs) best = { offsetMs: pong.tc - (t0 + t1) / 2, errorMs };
    }
    return best;
  }

  /** Subscribes every client to the run (from seq 0) and resolves once all are acknowledged. */
  async watch(runId: string): Promise<void> {
    const subscribed = this.next("subscribed");
    this.send({ type: "watch", runId });
    await subscribed;
  }

  /** Resolves with each client's record once every client has seen the run's last event. */
  async report(timeoutMs: number): Promise<ClientRecord[]> {
    const timer = setTimeout(() => {
      for (const waiter of this.waiting.splice(0)) {
        waiter.reject(new Error(`the clients did not see the run end within ${timeoutMs} ms`));
      }
    }, timeoutMs);
    try {
      const reply = (await this.next("report")) as Extract<Reply, { type: "report" }>;
      return reply.records;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }

  private next(type: Reply["type"]): Promise<Reply> {
    return new Promise((resolve, reject) => this.waiting.push({ type, resolve, reject }));
  }

  private send(message: ToClients): void {
    this.child.send(message);
  }
}
