import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { ApiError } from "../shared/api-error.js";

const LOCK_FILE = "waddle.lock";

/** Another live process serves from this data folder. */
export class DataDirLockedError extends ApiError<"data_dir_locked"> {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      "data_dir_locked",
      `Another Waddle server (pid ${pid}) uses the data folder ${dataDir}: stop it first, or set WADDLE_DATA_DIR to another folder.`,
      { dataDir, pid },
    );
    this.name = "DataDirLockedError";
  }
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `<dataDir>/waddle.lock` for this process, so that a second server on the same folder fails before it
 * touches the database (its start-up recovery would mark the first one's running runs interrupted). A lock
 * left by a process that died (kill -9), or by this very pid (a container restarted as pid 1), is taken
 * over. Returns the function that releases it.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  mkdirSync(dataDir, { recursive: true });
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, "wx");
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return () => {
        if (readHolder(file) !== process.pid) return;
        try {
          unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const holder = readHolder(file);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      unlinkSync(file);
    }
  }
}
