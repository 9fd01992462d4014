import { parseJson } from "@waddle/protocol";
import { z } from "zod";
import type { StoredCredential } from "./credential-store.js";

const Models = z.array(z.string());

/** A `credentials` row, alike in SQLite and PostgreSQL. */
export interface CredentialRow {
  name: string;
  kind: string;
  sealed: string;
  last4: string;
  base_url: string | null;
  models: string | null;
  updated_at: string;
}

/** An `allow_list` row: one entry of the `http` or `llm` list, at `position`. */
export interface AllowListRow {
  list: string;
  entry: string;
}

export function toStoredCredential(row: CredentialRow): StoredCredential {
  const parsed = row.models === null ? undefined : parseJson(row.models);
  const models = parsed?.ok ? Models.safeParse(parsed.value).data : undefined;
  return {
    name: row.name,
    kind: row.kind === "llm" ? "llm" : "secret",
    sealed: row.sealed,
    last4: row.last4,
    ...(row.base_url === null ? {} : { baseUrl: row.base_url }),
    ...(models ? { models } : {}),
    updatedAt: row.updated_at,
  };
}

/** The values of an INSERT of `credential`, in the column order of `CREDENTIAL_COLUMNS`. */
export function toCredentialValues(credential: StoredCredential): unknown[] {
  return [
    credential.name,
    credential.kind,
    credential.sealed,
    credential.last4,
    credential.baseUrl ?? null,
    credential.models ? JSON.stringify(credential.models) : null,
    credential.updatedAt,
  ];
}

export const CREDENTIAL_COLUMNS = "name, kind, sealed, last4, base_url, models, updated_at";

/** Rows of both lists, in their stored order, as lists. */
export function toAllowLists(rows: readonly AllowListRow[]): { http: string[]; llm: string[] } {
  return {
    http: rows.filter((row) => row.list === "http").map((row) => row.entry),
    llm: rows.filter((row) => row.list === "llm").map((row) => row.entry),
  };
}
