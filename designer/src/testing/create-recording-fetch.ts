/** One request a recording fetch saw, its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a handler (a string body is sent as is, anything else as JSON) and records every request. */
export function createRecordingFetch(
  handler: (request: RecordedRequest) => { status: number; body?: unknown },
): {
  fetcher: typeof fetch;
  calls: RecordedRequest[];
} {
  const calls: RecordedRequest[] = [];
  const fetcher = (async (url: string, init: RequestInit = {}) => {
    const request = {
      method: init.method ?? "GET",
      url,
      headers: init.headers as Record<string, string>,
      body: typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(request);
    const { status, body } = handler(request);
    return new Response(body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body), {
      status,
    });
  }) as typeof fetch;
  return { fetcher, calls };
}
