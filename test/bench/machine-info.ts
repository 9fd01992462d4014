import os from "node:os";
import type { MachineInfo } from "./bench-report.js";

/** Cores, CPU model, Node version and the 1-minute load average, as the benchmark starts. */
export function getMachineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown CPU",
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    totalMemGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}

/** One line, e.g. `machine: 2 cores, AMD EPYC, Node v20.20.2, linux x64, 7.8 GB RAM, load average 1.9 …`. */
export function formatMachine(machine: MachineInfo): string {
  const end = machine.loadAverageEnd === undefined ? "" : `, ${machine.loadAverageEnd} at end`;
  return (
    `machine: ${machine.cores} cores, ${machine.cpuModel}, Node ${machine.node}, ${machine.platform}, ` +
    `${machine.totalMemGb} GB RAM, load average (1 min) ${machine.loadAverage} at start${end}`
  );
}
