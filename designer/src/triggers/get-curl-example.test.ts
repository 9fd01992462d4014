import { createHmac } from "node:crypto";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { getCurlExample, getSampleBody } from "./get-curl-example.js";

describe("getSampleBody", () => {
  it("fills every {{body.…}} the query reads, nested paths included", () => {
    expect(getSampleBody("New ticket: {{body.subject}} from {{ body.customer.email }} ({{query}})")).toEqual({
      subject: "example subject",
      customer: { email: "example email" },
    });
    expect(getSampleBody("Summarise the day")).toEqual({ text: "example" });
  });
});

describe("getCurlExample", () => {
  const url = "https://waddle.example/hooks/trg_1";

  it("signs the body with openssl for hmac, with the secret when it is shown", () => {
    const example = getCurlExample({
      url,
      secretMode: "hmac",
      query: "{{body.subject}}",
      secret: "whsec_x'y",
    });
    expect(example.split("\n")).toEqual([
      `export WADDLE_HOOK_SECRET='whsec_x'\\''y'`,
      `BODY='{"subject":"example subject"}'`,
      "T=$(date +%s)",
      `SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac "$WADDLE_HOOK_SECRET" | sed 's/^.* //')`,
      `curl -X POST 'https://waddle.example/hooks/trg_1' \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -H "Waddle-Signature: t=$T,v1=$SIG" \\`,
      `  -H 'Idempotency-Key: evt_0001' \\`,
      `  --data "$BODY"`,
    ]);
  });

  it("makes the signature the server checks: HMAC-SHA256 of '<t>.<body>' in hex", () => {
    const example = getCurlExample({ url, secretMode: "hmac", query: "{{body.subject}}", secret: "s3cret" });
    // run the example's own lines up to the signature, with a fixed time, and print what curl would send
    const script = example
      .split("\n")
      .filter((line) => !line.startsWith("curl") && !line.startsWith("  "))
      .join("\n")
      .replace("T=$(date +%s)", "T=1767600000");
    const printed = execFileSync("sh", ["-c", `${script}\nprintf '%s\\n%s' "$SIG" "$BODY"`], {
      encoding: "utf8",
    });
    const [signature, body] = printed.split("\n");
    const expected = createHmac("sha256", "s3cret").update(`1767600000.${body}`).digest("hex");
    expect(signature).toBe(expected);
  });

  it("sends the secret as a bearer token, and uses the trigger's idempotency field", () => {
    const example = getCurlExample({
      url,
      secretMode: "bearer",
      query: "{{body.subject}}",
      idempotencyField: "eventId",
    });
    expect(example).toContain("# WADDLE_HOOK_SECRET: the secret shown when the trigger was created");
    expect(example).toContain(`BODY='{"subject":"example subject","eventId":"evt_0001"}'`);
    expect(example).toContain(`-H "Authorization: Bearer $WADDLE_HOOK_SECRET"`);
    expect(example).not.toContain("Idempotency-Key");
    expect(example).not.toContain("openssl");
  });
});
