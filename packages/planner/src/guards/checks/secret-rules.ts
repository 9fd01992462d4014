// The rules of the `secrets` check (RULES.md): key, token and private-key formats that announce themselves
// by a prefix or a shape, plus generic `name = value` assignments. Each rule is linear (bounded,
// unambiguous repetitions; a long run can start a match only where it starts) and carries literal hints,
// one of which must occur for the rule to run at all.
import type { GuardSpan } from "../guard-types.js";
import { findPrivateKeys } from "./secret-private-key.js";

/**
 * One format: a pattern, or a `find` function for what a pattern cannot do in linear time. `value`: the
 * capture group to mask (the rest of the match, such as `api_key=`, stays); its pattern has the `d` flag.
 */
export interface SecretRule {
  kind: string;
  pattern?: RegExp;
  find?: (text: string) => GuardSpan[];
  /** Lower-case substrings, one of which must occur in the lower-cased text. */
  hints: readonly string[];
  value?: number;
  /** The finding's kind when it depends on the match (`password` for a `password=` assignment). */
  kindOf?: (match: RegExpExecArray) => string;
  /** A last check of the matched (or captured) text: placeholders and words are not secrets. */
  accept?: (found: string, match: RegExpExecArray) => boolean;
}

const hasDigitAndLetter = (value: string) => /\d/.test(value) && /[A-Za-z]/.test(value);

/** Values that name a secret rather than hold one: `<token>`, `${SECRET}`, `********`, `your-key-here`. */
const PLACEHOLDER =
  /^(?:[*x.•-]+|<[^>]*>?|\$\{?[\w.]*\}?|\{\{.*|%\w*%?|(?:your|my|the|some|example|sample|dummy|fake|test|changeme|placeholder|redacted|hidden|secret|password|null|none|undefined|true|false|required|optional|string|env)\b.*)$/i;
/** `YOUR_API_KEY`, `OPENAI_TOKEN`: the name of a variable, not its value. */
const isVariableName = (value: string) => /^[A-Z0-9_]+$/.test(value) && /KEY|TOKEN|SECRET|PASS/.test(value);
const isRealValue = (value: string) => !PLACEHOLDER.test(value) && !isVariableName(value);

/** Names of `name = value` assignments whose value is a secret (JSON, YAML, env files, query strings). */
const SECRET_NAMES =
  "api[_-]?key|apikey|api[_-]?secret|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|private[_-]?token|x-api-key|password|passwd|pwd";
const isPasswordName = (name: string) => /^(?:password|passwd|pwd)$/i.test(name);

export const SECRET_RULES: readonly SecretRule[] = [
  { kind: "private_key", find: findPrivateKeys, hints: ["private key"] },
  {
    kind: "aws_access_key",
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
    hints: ["akia", "asia", "abia", "acca"],
  },
  {
    kind: "aws_secret_key",
    pattern:
      /\baws_?secret_?access_?key\b["']?\s{0,8}[:=]\s{0,8}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    hints: ["secret"],
    value: 1,
  },
  {
    kind: "github_token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    hints: ["gh", "github_pat_"],
  },
  { kind: "gitlab_token", pattern: /\bglpat-[A-Za-z0-9_-]{20,255}/g, hints: ["glpat-"] },
  { kind: "anthropic_key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,255}/g, hints: ["sk-ant-"] },
  {
    kind: "openai_key",
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g,
    hints: ["sk-"],
    accept: hasDigitAndLetter,
  },
  {
    kind: "stripe_key",
    pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,255}|whsec_[A-Za-z0-9]{24,255})/g,
    hints: ["_live_", "_test_", "whsec_"],
  },
  { kind: "slack_token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,255}/g, hints: ["xox"] },
  {
    kind: "slack_webhook",
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/]{20,255}/g,
    hints: ["hooks.slack.com"],
  },
  { kind: "google_api_key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, hints: ["aiza"] },
  { kind: "npm_token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, hints: ["npm_"] },
  { kind: "sendgrid_key", pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, hints: ["sg."] },
  {
    kind: "jwt",
    pattern:
      /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{10,1024}\.eyJ[A-Za-z0-9_-]{10,4096}\.[A-Za-z0-9_-]{10,1024}/g,
    hints: ["eyj"],
  },
  {
    kind: "bearer_token",
    pattern: /\bBearer\s{1,8}([A-Za-z0-9._~+/-]{20,4096}={0,2})/dgi,
    hints: ["bearer"],
    value: 1,
    accept: hasDigitAndLetter,
  },
  {
    kind: "basic_auth",
    pattern: /\bAuthorization["']?\s{0,8}[:=]\s{0,8}["']?Basic\s{1,8}([A-Za-z0-9+/]{8,4096}={0,2})/dgi,
    hints: ["basic"],
    value: 1,
  },
  {
    kind: "url_password",
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,64}:([^\s:/@]{1,128})@/dgi,
    hints: ["://"],
    value: 1,
    accept: isRealValue,
  },
  {
    kind: "api_key",
    pattern: new RegExp(
      `\\b(${SECRET_NAMES})\\b["']?\\s{0,8}[:=]\\s{0,8}["']?([^\\s"'\`,;&<>]{6,512})`,
      "dgi",
    ),
    hints: ["key", "secret", "token", "pass", "pwd"],
    value: 2,
    kindOf: (match) => (isPasswordName(match[1]!) ? "password" : "api_key"),
    accept: (value, match) => {
      if (!isRealValue(value)) return false;
      return isPasswordName(match[1]!) || (value.length >= 8 && hasDigitAndLetter(value));
    },
  },
];

/** The longest match: a private key block (8 KB of body plus its armour lines; a JWT is shorter). */
export const SECRET_MAX_SPAN = 8_400;
