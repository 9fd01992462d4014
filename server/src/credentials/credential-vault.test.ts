import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../shared/logger.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { SqliteStore } from "../store/sqlite-store.js";
import { CredentialVault, type EnvironmentSettings } from "./credential-vault.js";
import { SecretBox, createSecretsKey, parseSecretsKey } from "./secret-box.js";

const VALUE = "sk-stored-value-0123456789abcdef";
const none: EnvironmentSettings = { httpAllow: [], secrets: {}, llmAllow: [], llmKeyEnvs: [] };
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function makeDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-vault-"));
  dirs.push(dir);
  return dir;
}

async function openVault(options: { dir: string; env?: NodeJS.ProcessEnv; settings?: EnvironmentSettings }) {
  const store = new SqliteStore(path.join(options.dir, "waddle.db"));
  const redactor = new SecretRedactor([]);
  try {
    const vault = await CredentialVault.open({
      store: store.credentials,
      env: options.env ?? {},
      dataDir: options.dir,
      settings: options.settings ?? none,
      redactor,
    });
    return { vault, store, redactor };
  } catch (error) {
    await store.close();
    throw error;
  }
}

describe("SecretBox", () => {
  it("seals a value so that its bytes are not the value, and opens it again", () => {
    const box = new SecretBox(createSecretsKey());
    const sealed = box.seal("NAME", VALUE);
    expect(sealed).not.toContain(VALUE);
    expect(Buffer.from(sealed.slice(3), "base64").includes(Buffer.from(VALUE))).toBe(false);
    expect(box.seal("NAME", VALUE)).not.toBe(sealed);
    expect(box.open("NAME", sealed)).toBe(VALUE);
  });

  it("refuses another key, another name and an altered value", () => {
    const box = new SecretBox(createSecretsKey());
    const sealed = box.seal("NAME", VALUE);
    expect(() => new SecretBox(createSecretsKey()).open("NAME", sealed)).toThrow(/does not decrypt/);
    expect(() => box.open("OTHER", sealed)).toThrow(/does not decrypt/);
    const bytes = Buffer.from(sealed.slice(3), "base64");
    bytes[bytes.length - 1]! ^= 1;
    expect(() => box.open("NAME", `v1:${bytes.toString("base64")}`)).toThrow(/does not decrypt/);
  });

  it("reads a key as 64 hex characters or base64 of 32 bytes, and nothing else", () => {
    const key = createSecretsKey();
    expect(parseSecretsKey(key.toString("hex"))).toEqual(key);
    expect(parseSecretsKey(key.toString("base64"))).toEqual(key);
    expect(parseSecretsKey(key.subarray(0, 16).toString("hex"))).toBeUndefined();
    expect(parseSecretsKey("not a key")).toBeUndefined();
  });
});

describe("CredentialVault", () => {
  it("keeps only the sealed value on disk, in a key file of mode 0600 made on first use", async () => {
    const dir = makeDir();
    const { vault, store } = await openVault({ dir });
    expect(readdirSync(dir)).not.toContain("secrets.key");
    const shown = await vault.put("OPENAI_KEY", {
      kind: "llm",
      value: VALUE,
      baseUrl: "http://127.0.0.1:9/v1",
    });
    expect(shown).toMatchObject({ name: "OPENAI_KEY", kind: "llm", last4: "cdef", source: "stored" });
    expect(JSON.stringify(shown)).not.toContain(VALUE);
    expect(statSync(path.join(dir, "secrets.key")).mode & 0o777).toBe(0o600);
    await store.close();
    for (const file of readdirSync(dir)) {
      expect(readFileSync(path.join(dir, file)).includes(Buffer.from(VALUE))).toBe(false);
    }
    // Opened again with the same key file, the value is there.
    const again = await openVault({ dir });
    expect((await again.vault.getRunSettings()).getLlmKey("OPENAI_KEY")?.key).toBe(VALUE);
    await again.store.close();
  });

  it("stops the start when WADDLE_SECRETS_KEY is not the key the credentials were stored with", async () => {
    const dir = makeDir();
    const env = { WADDLE_SECRETS_KEY: createSecretsKey().toString("hex") };
    const first = await openVault({ dir, env });
    await first.vault.put("TOKEN", { kind: "secret", value: VALUE });
    await first.store.close();
    await expect(
      openVault({ dir, env: { WADDLE_SECRETS_KEY: createSecretsKey().toString("base64") } }),
    ).rejects.toThrow(/WADDLE_SECRETS_KEY is not the key the stored credentials were sealed with/);
    await expect(openVault({ dir, env: { WADDLE_SECRETS_KEY: "abc" } })).rejects.toThrow(
      /WADDLE_SECRETS_KEY is not a 32-byte key/,
    );
    const right = await openVault({ dir, env });
    expect((await right.vault.getRunSettings()).secrets.TOKEN).toBe(VALUE);
    await right.store.close();
  });

  it("stops the start when secrets.key is corrupted, replaced or missing while credentials are stored", async () => {
    const dir = makeDir();
    const first = await openVault({ dir });
    await first.vault.put("TOKEN", { kind: "secret", value: VALUE });
    await first.store.close();
    const file = path.join(dir, "secrets.key");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, "garbage");
    await expect(openVault({ dir })).rejects.toThrow(/secrets key file .*secrets.key is corrupted/);
    writeFileSync(file, createSecretsKey().toString("hex"));
    await expect(openVault({ dir })).rejects.toThrow(
      /secrets key file .* does not open the stored credentials/,
    );
    rmSync(file);
    await expect(openVault({ dir })).rejects.toThrow(/secrets key file .* is missing/);
    writeFileSync(file, original);
    const restored = await openVault({ dir });
    expect((await restored.vault.list()).map((entry) => entry.name)).toEqual(["TOKEN"]);
    await restored.store.close();
  });

  it("shows the environment's entries read-only, lets them win on a name clash, and never shows a value", async () => {
    const dir = makeDir();
    const env = { OPENAI_API_KEY: "sk-env-key-000000001111", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    const settings = { ...none, secrets: { SHARED: "env-shared-value-123" } };
    const { vault, store } = await openVault({ dir, env, settings });
    await expect(vault.put("SHARED", { kind: "secret", value: VALUE })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(vault.put("OPENAI_API_KEY", { kind: "llm", value: VALUE })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(vault.delete("SHARED")).rejects.toMatchObject({ code: "conflict" });
    await expect(vault.delete("NOPE")).rejects.toMatchObject({ code: "not_found" });
    await vault.put("OTHER", { kind: "secret", value: VALUE });
    // A stored one of the same name (stored before the variable was set) is hidden, not used.
    const key = parseSecretsKey(readFileSync(path.join(dir, "secrets.key"), "utf8"))!;
    await store.credentials.put({
      name: "SHARED",
      kind: "secret",
      sealed: new SecretBox(key).seal("SHARED", VALUE),
      last4: "cdef",
      updatedAt: new Date().toISOString(),
    });
    const list = await vault.list();
    expect(list.map(({ name, source }) => [name, source])).toEqual([
      ["OPENAI_API_KEY", "environment"],
      ["SHARED", "environment"],
      ["OTHER", "stored"],
      ["SHARED", "stored"],
    ]);
    expect(list.find((entry) => entry.source === "stored" && entry.name === "SHARED")?.shadowed).toBe(true);
    expect(JSON.stringify(list)).not.toMatch(/env-shared-value|sk-env-key|sk-stored-value/);
    const live = await vault.getRunSettings();
    expect(live.secrets.SHARED).toBe("env-shared-value-123");
    expect(live.getLlmKey("OPENAI_API_KEY")).toEqual({
      key: "sk-env-key-000000001111",
      source: "environment",
    });
    await store.close();
  });

  it("takes changes into the next run's settings and the redactor at once", async () => {
    const dir = makeDir();
    const { vault, store, redactor } = await openVault({ dir });
    const before = await vault.getRunSettings();
    expect(before.getLlmKey("LOCAL")).toBeUndefined();
    expect(
      before.llmPolicy.check(
        { provider: "openai", model: "m", baseUrl: "http://127.0.0.1:9/v1", temperature: 0 },
        "llm",
      ),
    ).toHaveLength(1);
    await vault.put("LOCAL", { kind: "llm", value: VALUE, baseUrl: "http://127.0.0.1:9/v1" });
    await vault.putAllowList({ http: ["api.example.com", "127.0.0.1:8080"], llm: ["http://10.0.0.5:8000"] });
    const after = await vault.getRunSettings();
    expect(after.getLlmKey("LOCAL")).toEqual({
      key: VALUE,
      baseUrl: "http://127.0.0.1:9/v1",
      source: "stored",
    });
    expect(
      after.llmPolicy.check(
        { provider: "openai", model: "m", baseUrl: "http://127.0.0.1:9/v1", temperature: 0 },
        "llm",
      ),
    ).toEqual([]);
    expect(
      after.llmPolicy.check(
        { provider: "openai", model: "m", baseUrl: "http://10.0.0.5:8000/v1", temperature: 0 },
        "llm",
      ),
    ).toEqual([]);
    expect(after.allowList.isAllowed(new URL("https://api.example.com/x"))).toBe(true);
    expect(after.allowList.isAddressListed("127.0.0.1", new URL("http://127.0.0.1:8080/"))).toBe(true);
    expect(redactor.redactText(`key ${VALUE}`)).toBe("key [redacted]");
    await vault.delete("LOCAL");
    expect((await vault.getRunSettings()).getLlmKey("LOCAL")).toBeUndefined();
    expect(redactor.redactText(`key ${VALUE}`)).toBe(`key ${VALUE}`);
    await store.close();
  });

  it("keeps stored values out of the server's log lines", async () => {
    const dir = makeDir();
    const { vault, store, redactor } = await openVault({ dir });
    const logger = createLogger({ level: "info", redactor });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await vault.put("TOKEN", { kind: "secret", value: VALUE });
      logger.info("calling the weather API", { header: `Bearer ${VALUE}` });
    } finally {
      spy.mockRestore();
    }
    expect(lines.join("")).toContain("Bearer [redacted]");
    expect(lines.join("")).not.toContain(VALUE);
    await store.close();
  });

  it("refuses allow-list entries that are not a host, host:port or address, saying why", async () => {
    const dir = makeDir();
    const { vault, store } = await openVault({ dir });
    const refusals: [string[], string[], RegExp][] = [
      [["https://api.example.com/v1"], [], /without a scheme \(api\.example\.com\)/],
      [["api.example.com/path"], [], /without a path/],
      [["*"], [], /WADDLE_HTTP_ALLOW/],
      [["*.com"], [], /top-level domain/],
      [["bad_host!"], [], /not a host name/],
      [["example.com:99999"], [], /port 99999/],
      [["300.1.1.1"], [], /not an IPv4 address/],
      [[], ["ftp://x.example.com"], /only http and https/],
      [[], ["*.example.com"], /no wildcards/],
    ];
    for (const [http, llm, why] of refusals) {
      await expect(vault.putAllowList({ http, llm })).rejects.toMatchObject({
        code: "validation_failed",
        message: expect.stringMatching(why),
      });
    }
    const lists = await vault.putAllowList({
      http: ["API.Example.com", "*.weather.test", "127.0.0.1:8080", "::1", "[::1]:9000"],
      llm: ["http://127.0.0.1:11434/v1", "api.deepseek.com"],
    });
    expect(lists.http.map((entry) => entry.entry)).toEqual([
      "api.example.com",
      "*.weather.test",
      "127.0.0.1:8080",
      "[::1]",
      "[::1]:9000",
    ]);
    expect(lists.llm.filter((entry) => entry.source === "stored").map((entry) => entry.entry)).toEqual([
      "http://127.0.0.1:11434",
      "https://api.deepseek.com",
    ]);
    await store.close();
  });
});
