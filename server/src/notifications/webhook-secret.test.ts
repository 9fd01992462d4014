import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CredentialVault } from "../credentials/credential-vault.js";
import { SecretBoxError } from "../credentials/secret-box.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { MemoryStore } from "../store/memory-store.js";
import { getSecretName } from "./webhook-admin.js";

const dir = mkdtempSync(path.join(tmpdir(), "waddle-webhook-secret-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const openVault = () =>
  CredentialVault.open({
    store: new MemoryStore().credentials,
    env: {},
    dataDir: dir,
    settings: { httpAllow: [], secrets: {}, llmAllow: [], llmKeyEnvs: [] },
    redactor: new SecretRedactor([]),
  });

describe("a webhook's signing secret at rest", () => {
  it("is sealed with the credentials' key, opens for its own webhook only, and on an instance that started before the key existed", async () => {
    // Two instances on one data folder, both started before any secret was sealed.
    const sealing = await openVault();
    const other = await openVault();
    expect(other.keySource).toBe("none");
    const sealed = sealing.sealValue(getSecretName("whk_1"), "whsec_the_secret_value");
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain("the_secret_value");
    expect(sealing.openValue(getSecretName("whk_1"), sealed)).toBe("whsec_the_secret_value");
    expect(other.openValue(getSecretName("whk_1"), sealed)).toBe("whsec_the_secret_value");
    expect(() => other.openValue(getSecretName("whk_2"), sealed)).toThrow(SecretBoxError);
  });
});
