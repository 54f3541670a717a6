/** A benchmark's calls to a platform's API as its admin: the parsed answer, or an error naming the call. */
export function adminApi(base: string, token: string): (method: string, path: string, json?: unknown) => Promise<any> {
  return async (method, path, json) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
}
