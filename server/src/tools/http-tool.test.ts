import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ToolSpec } from "@waddle/protocol";
import type { ToolRunContext } from "@waddle/planner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostAllowList } from "./host-allow-list.js";
import { createHttpToolRunner } from "./http-tool.js";
import { resolveAllowedAddress, type HostLookup } from "./resolve-allowed-address.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}
const seen: Seen[] = [];
let server: Server;
let base: string;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      const url = new URL(request.url ?? "/", "http://x");
      if (url.pathname === "/weather") {
        response.setHeader("content-type", "application/json");
        response.end(
          JSON.stringify({ city: url.searchParams.get("city"), auth: request.headers.authorization }),
        );
      } else if (url.pathname === "/redirect-away") {
        response.writeHead(302, { location: `http://localhost:${port}/weather?city=away` }).end();
      } else if (url.pathname === "/redirect-here") {
        response.writeHead(307, { location: "/weather?city=here" }).end();
      } else if (url.pathname === "/big") {
        response.end("x".repeat(5_000));
      } else if (url.pathname === "/slow") {
        setTimeout(() => response.end("late"), 2_000);
      } else if (url.pathname === "/denied") {
        response
          .writeHead(403, { "content-type": "text/plain" })
          .end(`bad key ${request.headers.authorization}`);
      } else if (url.pathname === "/echo") {
        response.setHeader("content-type", "application/json");
        response.end(body || "{}");
      } else {
        response.writeHead(404, { "content-type": "text/plain" }).end("no such page");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const context = (): ToolRunContext => ({ signal: new AbortController().signal }) as ToolRunContext;
const secrets = { WEATHER_KEY: "sk-weather-123456" };
const redactor = new SecretRedactor(Object.values(secrets));

function runner(impl: Record<string, unknown>, allow = "127.0.0.1", lookup?: HostLookup) {
  const tool = ToolSpec.parse({ name: "call_api", impl: { kind: "http", ...impl } }) as Parameters<
    typeof createHttpToolRunner
  >[0]["tool"];
  return createHttpToolRunner({
    tool,
    allowList: HostAllowList.fromEnv(allow),
    secrets,
    redactor,
    ...(lookup ? { lookup } : {}),
  });
}

/** A resolver that knows the given names only, and counts its questions. */
function fakeDns(answers: Record<string, string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

describe("http tools", () => {
  it("calls an allow-listed host with URL and query templates and a secret header, redacting echoes", async () => {
    const run = runner({
      url: `${base}/{path}`,
      query: { city: "{city}", unit: "{unit}" },
      headers: { authorization: { secret: "WEATHER_KEY" }, "x-client": "waddle" },
    });
    const out = await run({ path: "weather", city: "Paris & Lyon" }, context());
    expect(out).toEqual({ city: "Paris & Lyon", auth: "[redacted]" });
    const request = seen.at(-1)!;
    expect(request.url).toBe("/weather?city=Paris+%26+Lyon");
    expect(request.headers.authorization).toBe("sk-weather-123456");
    expect(request.headers["x-client"]).toBe("waddle");
    expect(request.method).toBe("GET");
  });

  it("refuses a host that is not on the allow-list without sending anything", async () => {
    const before = seen.length;
    const run = runner({ url: `${base}/weather` }, "api.example.com,*.example.org");
    await expect(run({}, context())).rejects.toMatchObject({ code: "host_not_allowed" });
    await expect(runner({ url: `${base}/weather` }, "")({}, context())).rejects.toMatchObject({
      code: "host_not_allowed",
    });
    expect(seen.length).toBe(before);
  });

  it("follows redirects on the list and refuses those that leave it", async () => {
    await expect(runner({ url: `${base}/redirect-here` })({}, context())).resolves.toMatchObject({
      city: "here",
    });
    const before = seen.length;
    await expect(runner({ url: `${base}/redirect-away` })({}, context())).rejects.toMatchObject({
      code: "host_not_allowed",
    });
    expect(seen.length).toBe(before + 1);
  });

  it("posts the args or a rendered body template", async () => {
    await expect(runner({ method: "POST", url: `${base}/echo` })({ a: 1 }, context())).resolves.toEqual({
      a: 1,
    });
    const templated = runner({
      method: "POST",
      url: `${base}/echo`,
      body: { query: "{q}", text: "about {q}", n: "{n}" },
    });
    await expect(templated({ q: "cats", n: 3 }, context())).resolves.toEqual({
      query: "cats",
      text: "about cats",
      n: 3,
    });
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
  });

  it("limits the response size, the time, and reports HTTP errors and missing pieces", async () => {
    await expect(
      runner({ url: `${base}/big`, maxResponseBytes: 1_000 })({}, context()),
    ).rejects.toMatchObject({
      code: "response_too_large",
    });
    await expect(runner({ url: `${base}/big` })({}, context())).resolves.toMatchObject({ status: 200 });
    await expect(runner({ url: `${base}/slow`, timeoutMs: 100 })({}, context())).rejects.toMatchObject({
      code: "http_timeout",
    });
    await expect(runner({ url: `${base}/missing` })({}, context())).rejects.toMatchObject({
      code: "http_error",
      message: expect.stringContaining("404"),
    });
    await expect(runner({ url: `${base}/{path}` })({}, context())).rejects.toMatchObject({
      code: "missing_arg",
    });
    await expect(
      runner({ url: `${base}/weather`, headers: { authorization: { secret: "NOPE" } } })({}, context()),
    ).rejects.toMatchObject({
      code: "missing_secret",
      message: expect.stringContaining("WADDLE_SECRET_NOPE"),
    });
  });

  it("refuses an arg of . or .. that would move the URL out of its template's path", async () => {
    const run = runner({
      url: `${base}/files/{name}/meta`,
      headers: { authorization: { secret: "WEATHER_KEY" } },
    });
    const before = seen.length;
    for (const name of ["..", "."]) {
      await expect(run({ name }, context())).rejects.toMatchObject({
        code: "invalid_arg",
        message: expect.stringContaining('"name"'),
      });
    }
    expect(seen.length).toBe(before);
    await expect(run({ name: "..." }, context())).rejects.toMatchObject({ code: "http_error" });
    expect(seen.at(-1)?.url).toBe("/files/.../meta");
  });

  it("redacts a secret an error body echoes back", async () => {
    const run = runner({ url: `${base}/denied`, headers: { authorization: { secret: "WEATHER_KEY" } } });
    const error = (await run({}, context()).then(
      () => new Error("expected a failure"),
      (caught: unknown) => caught,
    )) as Error;
    expect(error).toMatchObject({
      code: "http_error",
      message: expect.stringContaining("bad key [redacted]"),
    });
    expect(error.message).not.toContain("sk-weather-123456");
  });

  it("stops when the run is cancelled", async () => {
    const controller = new AbortController();
    const pending = runner({ url: `${base}/slow` })({}, { signal: controller.signal } as ToolRunContext);
    controller.abort();
    await expect(pending).rejects.toBeDefined();
  });
});

describe("http tools and private addresses", () => {
  it("refuses a name that resolves to 127.0.0.1 unless that address is listed, sending nothing", async () => {
    const dns = fakeDns({ "api.test": ["127.0.0.1"] });
    const before = seen.length;
    for (const allow of [`api.test:${port}`, "*.test", "*"]) {
      await expect(
        runner({ url: `http://api.test:${port}/weather` }, allow, dns)({}, context()),
      ).rejects.toMatchObject({
        code: "address_not_allowed",
        message: expect.stringContaining(`Host "api.test" resolves to 127.0.0.1`),
      });
    }
    expect(seen.length).toBe(before);
  });

  it("connects to the address it checked: a name only the injected resolver knows reaches the listed address", async () => {
    const dns = fakeDns({ "api.test": ["127.0.0.1"] });
    const run = runner(
      { url: `http://api.test:${port}/weather`, query: { city: "{city}" } },
      `api.test,127.0.0.1:${port}`,
      dns,
    );
    await expect(run({ city: "Oslo" }, context())).resolves.toMatchObject({ city: "Oslo" });
    expect(seen.at(-1)?.headers.host).toBe(`api.test:${port}`);
    // One question per request: the connection asks no resolver again, so no second answer can rebind it.
    expect(dns.calls).toEqual(["api.test"]);
  });

  it("refuses private addresses written as IP literals in any form unless listed", async () => {
    const before = seen.length;
    for (const host of [
      "2130706433",
      "0x7f.1",
      "0177.0.0.1",
      "127.1",
      "[::ffff:127.0.0.1]",
      "[::1]",
      "0.0.0.0",
    ]) {
      await expect(
        runner({ url: `http://${host}:${port}/weather` }, "*")({}, context()),
        host,
      ).rejects.toMatchObject({
        code: "address_not_allowed",
      });
    }
    expect(seen.length).toBe(before);
    // Listed by IP (in another spelling of the same address): allowed.
    await expect(
      runner({ url: `http://2130706433:${port}/weather` }, `127.0.0.1:${port}`)({}, context()),
    ).resolves.toMatchObject({
      city: null,
    });
  });

  it("checks the address of every redirect target too", async () => {
    const dns = fakeDns({ "metadata.test": ["169.254.169.254"] });
    const server = createServer((_request, response) =>
      response.writeHead(302, { location: "http://metadata.test/latest/meta-data/" }).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const redirecting = (server.address() as AddressInfo).port;
    try {
      await expect(
        runner(
          { url: `http://127.0.0.1:${redirecting}/` },
          `127.0.0.1:${redirecting},*.test`,
          dns,
        )({}, context()),
      ).rejects.toMatchObject({ code: "address_not_allowed", details: { address: "169.254.169.254" } });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("picks a public address among the answers, and reports names that do not resolve", async () => {
    const allowList = HostAllowList.fromEnv("*.example.com");
    const mixed = fakeDns({ "api.example.com": ["10.0.0.7", "93.184.216.34"], "www.example.com": [] });
    await expect(
      resolveAllowedAddress(new URL("https://api.example.com/x"), { allowList, lookup: mixed }),
    ).resolves.toEqual({ address: "93.184.216.34", family: 4 });
    await expect(
      resolveAllowedAddress(new URL("https://gone.example.com/x"), { allowList, lookup: mixed }),
    ).rejects.toMatchObject({ code: "http_error", message: expect.stringContaining("ENOTFOUND") });
    await expect(
      resolveAllowedAddress(new URL("https://www.example.com/x"), { allowList, lookup: mixed }),
    ).rejects.toMatchObject({ code: "http_error" });
    await expect(
      resolveAllowedAddress(new URL("file:///etc/passwd"), { allowList, lookup: mixed }),
    ).rejects.toMatchObject({ code: "invalid_url" });
  });
});

describe("HostAllowList", () => {
  it.each([
    ["api.example.com", "https://api.example.com/x", true],
    ["api.example.com", "https://evil.com/?api.example.com", false],
    ["*.example.com", "https://a.b.example.com/", true],
    ["*.example.com", "https://example.com/", false],
    ["*.example.com", "https://badexample.com/", false],
    ["127.0.0.1:8080", "http://127.0.0.1:8080/", true],
    ["127.0.0.1:8080", "http://127.0.0.1:9090/", false],
    ["https://API.example.com", "https://api.example.com/", true],
    ["[::1]", "http://[::1]:3000/", true],
    ["*", "https://anything.test/", true],
    ["", "https://anything.test/", false],
    ["2130706433", "http://127.0.0.1/", true],
  ])("%s allows %s: %s", (entries, url, allowed) => {
    expect(HostAllowList.fromEnv(entries).isAllowed(new URL(url))).toBe(allowed);
  });

  it.each([
    ["127.0.0.1", "127.0.0.1", "http://a.test:8080/", true],
    ["127.0.0.1:8080", "127.0.0.1", "http://a.test:8080/", true],
    ["127.0.0.1:8080", "127.0.0.1", "http://a.test:9090/", false],
    ["[::1]", "0:0:0:0:0:0:0:1", "http://a.test/", true],
    ["*", "127.0.0.1", "http://a.test/", false],
    ["*.0.0.1", "127.0.0.1", "http://a.test/", false],
    ["a.test", "127.0.0.1", "http://a.test/", false],
  ])("%s lists the address %s for %s: %s", (entries, address, url, listed) => {
    expect(HostAllowList.fromEnv(entries).isAddressListed(address, new URL(url))).toBe(listed);
  });
});
