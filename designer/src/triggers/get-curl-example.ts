import { getTemplatePaths } from "@waddle/protocol";

/** A JSON body that fills every `{{body.…}}` of the trigger's query template with a sample value. */
export function getSampleBody(query: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const path of getTemplatePaths(query)) {
    const segments = path.match(/[^.[\]]+/g) ?? [];
    if (segments[0] !== "body" || segments.length < 2) continue;
    let at: Record<string, unknown> = body;
    segments.slice(1, -1).forEach((segment) => {
      const next = at[segment];
      at = (at[segment] = next && typeof next === "object" ? next : {}) as Record<string, unknown>;
    });
    at[segments.at(-1)!] ??= `example ${segments.at(-1)}`;
  }
  return Object.keys(body).length > 0 ? body : { text: "example" };
}

/** A value in single quotes for a POSIX shell (a quote inside closes, escapes and reopens). */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The shell lines that call a webhook trigger: the body, then, for `hmac`, the `Waddle-Signature` made with
 * openssl (HMAC-SHA256 of `"<t>.<body>"`, hex), or for `bearer`, the secret as a bearer token. The secret
 * is read from `$WADDLE_HOOK_SECRET`, set on the first line when it is known (shown once, at creation).
 */
export function getCurlExample(options: {
  url: string;
  secretMode: "hmac" | "bearer";
  query: string;
  secret?: string | null;
  /** The body field whose value makes a redelivery one run, if the trigger names one. */
  idempotencyField?: string | null;
}): string {
  const body = getSampleBody(options.query);
  if (options.idempotencyField && !(options.idempotencyField in body))
    body[options.idempotencyField] = "evt_0001";
  const lines = [
    options.secret
      ? `export WADDLE_HOOK_SECRET=${quote(options.secret)}`
      : "# WADDLE_HOOK_SECRET: the secret shown when the trigger was created",
    `BODY=${quote(JSON.stringify(body))}`,
  ];
  const curl = [`curl -X POST ${quote(options.url)}`, `  -H 'Content-Type: application/json'`];
  if (options.secretMode === "hmac") {
    lines.push(
      "T=$(date +%s)",
      `SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac "$WADDLE_HOOK_SECRET" | sed 's/^.* //')`,
    );
    curl.push(`  -H "Waddle-Signature: t=$T,v1=$SIG"`);
  } else {
    curl.push(`  -H "Authorization: Bearer $WADDLE_HOOK_SECRET"`);
  }
  if (!options.idempotencyField) curl.push(`  -H 'Idempotency-Key: evt_0001'`);
  curl.push(`  --data "$BODY"`);
  return [...lines, curl.join(" \\\n")].join("\n");
}
