import { describe, expect, it } from "vitest";
import { SECRET_RULES } from "./secret-rules.js";
import { createSecretsMatcher } from "./secrets-matcher.js";
import { applyMasks } from "./text-matcher.js";

const matcher = createSecretsMatcher();
const kinds = (text: string) =>
  matcher.findSpans(text).map((span) => [span.kind, text.slice(span.start, span.end)]);
// Made-up values of the right shapes, assembled so that no scanner mistakes this file for a leak.
const repeat = (chars: string, length: number) =>
  chars.repeat(Math.ceil(length / chars.length)).slice(0, length);

describe("createSecretsMatcher", () => {
  it.each([
    ["aws_access_key", `key AKIA${repeat("QX7Z", 16)} here`, `AKIA${repeat("QX7Z", 16)}`],
    ["github_token", `token ghp_${repeat("aB3d", 36)}`, `ghp_${repeat("aB3d", 36)}`],
    ["github_token", `github_pat_${repeat("11AbC_", 82)}`, `github_pat_${repeat("11AbC_", 82)}`],
    ["gitlab_token", `glpat-${repeat("x1Y2", 20)}`, `glpat-${repeat("x1Y2", 20)}`],
    ["openai_key", `OPENAI=sk-proj-${repeat("Ab3dE5", 48)}`, `sk-proj-${repeat("Ab3dE5", 48)}`],
    ["anthropic_key", `sk-ant-api03-${repeat("Zy9x", 40)}`, `sk-ant-api03-${repeat("Zy9x", 40)}`],
    [
      "stripe_key",
      `sk_live_${repeat("4eC39HqLyjWDarjtT1zdp7dc", 24)}`,
      `sk_live_${repeat("4eC39HqLyjWDarjtT1zdp7dc", 24)}`,
    ],
    ["slack_token", `xoxb-${repeat("1234-", 25)}abc`, `xoxb-${repeat("1234-", 25)}abc`],
    [
      "slack_webhook",
      `post to https://hooks.slack.com/services/T000/B000/${repeat("XyZ1", 24)}`,
      `https://hooks.slack.com/services/T000/B000/${repeat("XyZ1", 24)}`,
    ],
    ["google_api_key", `AIza${repeat("Sy9-_k", 35)}`, `AIza${repeat("Sy9-_k", 35)}`],
    ["npm_token", `//registry/:_authToken=npm_${repeat("a1B2", 36)}`, `npm_${repeat("a1B2", 36)}`],
    [
      "sendgrid_key",
      `SG.${repeat("aB3-", 22)}.${repeat("x_Y9", 43)}`,
      `SG.${repeat("aB3-", 22)}.${repeat("x_Y9", 43)}`,
    ],
    [
      "jwt",
      `cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${repeat("dozjgNr", 43)}`,
      `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${repeat("dozjgNr", 43)}`,
    ],
    ["bearer_token", `Authorization: Bearer ${repeat("t0k3n", 32)}`, repeat("t0k3n", 32)],
    ["basic_auth", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="],
    ["url_password", "postgres://admin:s3cr3tPw@db.internal:5432/app", "s3cr3tPw"],
    ["api_key", 'config {"api_key": "a1b2c3d4e5f6g7"}', "a1b2c3d4e5f6g7"],
    ["api_key", "CLIENT_SECRET=Zm9vYmFyMTIzNDU2", "Zm9vYmFyMTIzNDU2"],
    ["password", "password: hunter22", "hunter22"],
    [
      "aws_secret_key",
      `aws_secret_access_key = ${repeat("wJalrXUtnFEMI/K7MDENG+", 40)}`,
      repeat("wJalrXUtnFEMI/K7MDENG+", 40),
    ],
  ])("finds %s", (kind, text, secret) => {
    expect(kinds(text)).toEqual([[kind, secret]]);
  });

  it("finds a private key block from BEGIN to END, and without an END the base64 after its header", () => {
    const body = `${repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 64)}\n${repeat("Ab+/", 64)}`;
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(kinds(`key:\n${pem}\nrest`)).toEqual([["private_key", pem]]);
    expect(kinds(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`)).toEqual([
      ["private_key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`],
    ]);
    expect(kinds("-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----")).toEqual([]);
  });

  it("masks each secret as [secret], keeping an assignment's name", () => {
    const text = `api_key=a1b2c3d4e5f6g7 and ghp_${repeat("aB3d", 36)}`;
    expect(applyMasks(text, matcher.findSpans(text), matcher)).toBe("api_key=[secret] and [secret]");
  });

  it("leaves placeholders, variable names, words and prose alone", () => {
    for (const text of [
      "api_key: YOUR_API_KEY",
      'api_key = "<your-api-key>"',
      "api_key=${OPENAI_API_KEY}",
      "password: ********",
      "Password: required",
      "Set the password to something long.",
      "Bearer authentication-scheme-described",
      "task-force-meeting and sk-learn",
      "the access_token field holds the token",
      "https://user@example.com/path",
    ]) {
      expect(kinds(text), text).toEqual([]);
    }
  });

  it("keeps the specific rule's span over the generic assignment", () => {
    const text = `api_key: sk-proj-${repeat("Ab3dE5", 48)}`;
    expect(kinds(text)).toEqual([["openai_key", `sk-proj-${repeat("Ab3dE5", 48)}`]]);
  });

  it("gives every rule with a value group the d flag, so that the value's place is exact", () => {
    for (const rule of SECRET_RULES) {
      if (rule.value !== undefined) expect(rule.pattern?.hasIndices, rule.kind).toBe(true);
      expect(rule.pattern !== undefined || rule.find !== undefined, rule.kind).toBe(true);
    }
  });
});
