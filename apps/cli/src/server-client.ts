import { parseJson, protoSafeReviver, type ErrorBody } from "@waddle/protocol";

/** A failed API call, with the server's `{code, message}`. */
export class ServerRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
    message: string,
  ) {
    super(message);
    this.name = "ServerRequestError";
  }
}

/** A small REST client for `--server URL` (Bearer token from `--token` or WADDLE_TOKEN). */
export class ServerClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly token?: string,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
  }

  get authToken(): string | undefined {
    return this.token;
  }

  async request(
    method: string,
    pathname: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown; text: string; bytes: Uint8Array }> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${pathname}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new ServerRequestError(
        0,
        undefined,
        `Cannot reach ${this.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
    // Bytes too: exports in zip formats are binary.
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const parsed = text ? parseJson(text, { reviver: protoSafeReviver }) : undefined;
    const json = parsed?.ok ? parsed.value : undefined;
    if (!response.ok) {
      const error = json as ErrorBody | undefined;
      throw new ServerRequestError(
        response.status,
        error,
        `${method} ${pathname}: ${response.status} ${error?.code ?? ""} ${error?.message ?? text}`.trim(),
      );
    }
    return { status: response.status, json, text, bytes };
  }
}
