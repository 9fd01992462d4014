import type Database from "better-sqlite3";
import type { CredentialStore, StoredAllowList, StoredCredential } from "./credential-store.js";
import {
  CREDENTIAL_COLUMNS,
  toAllowLists,
  toCredentialValues,
  toStoredCredential,
  type AllowListRow,
  type CredentialRow,
} from "./credential-rows.js";
import { writeTransaction } from "../sqlite-write-transaction.js";

/** Credentials in the SQLite store's `credentials` and `allow_list` tables (migration 8). */
export class SqliteCredentialStore implements CredentialStore {
  constructor(private readonly db: Database.Database) {}

  async list(): Promise<StoredCredential[]> {
    const rows = this.db.prepare("SELECT * FROM credentials ORDER BY name").all() as CredentialRow[];
    return rows.map(toStoredCredential);
  }

  async get(name: string): Promise<StoredCredential | undefined> {
    const row = this.db.prepare("SELECT * FROM credentials WHERE name = ?").get(name) as
      CredentialRow | undefined;
    return row && toStoredCredential(row);
  }

  async put(credential: StoredCredential): Promise<void> {
    this.db
      .prepare(`INSERT OR REPLACE INTO credentials (${CREDENTIAL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(...toCredentialValues(credential));
  }

  async delete(name: string): Promise<boolean> {
    return this.db.prepare("DELETE FROM credentials WHERE name = ?").run(name).changes > 0;
  }

  async getAllowList(): Promise<StoredAllowList> {
    const rows = this.db
      .prepare("SELECT list, entry FROM allow_list ORDER BY list, position")
      .all() as AllowListRow[];
    return toAllowLists(rows);
  }

  async putAllowList(lists: StoredAllowList): Promise<void> {
    const insert = this.db.prepare("INSERT INTO allow_list (list, entry, position) VALUES (?, ?, ?)");
    writeTransaction(this.db, () => {
      this.db.prepare("DELETE FROM allow_list").run();
      for (const list of ["http", "llm"] as const)
        [...new Set(lists[list])].forEach((entry, position) => insert.run(list, entry, position));
    })();
  }
}
