/** Small HTTP helpers for tests: a request returning status, headers and the parsed body. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function call(base: string, method: string, path: string, options: { body?: string | Buffer; headers?: Record<string, string>; json?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}
