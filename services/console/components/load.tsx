/**
 * What the API said went wrong, shown where it happened: an RFC 9457 problem (its `detail`, and
 * the fields it names), as an alert. And `useLoad`, the one way the read-only screens fetch: the
 * answer, or the problem, or still loading, reloaded when its inputs change.
 */
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { type ApiProblem, problemOf } from '../app/api.js';
import { hasRight } from '../app/session.js';

export function ApiAlert({ problem, id }: { problem: ApiProblem | undefined; id?: string }) {
  if (!problem) return null;
  return (
    <div class="api-alert" role="alert" id={id}>
      <p>
        <strong>{problem.title ?? 'Request failed'}</strong>
        {problem.detail ? `: ${problem.detail}` : ''}
        {problem.code ? <span class="muted"> ({problem.code})</span> : null}
      </p>
      {problem.errors && problem.errors.length > 0 && (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The answer of an openapi-fetch call: its data, or its error with the response. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export type Loaded<T> = { state: 'loading' } | { state: 'ok'; data: T } | { state: 'error'; problem: ApiProblem };

/**
 * Runs `call` whenever `deps` change (the previous answer, if late, is dropped). The render right
 * after a change says loading: the answer held then belongs to the old inputs (the calendar drew
 * the next month's caption over the last month's modes for a frame). `keepOnReload`: a reload
 * (the returned function) keeps showing the answer until the new one comes, for lists changed in
 * place whose open panel must survive a save. The request starts as the render is committed, not
 * after the frame is painted as an effect would (a frame or more of a screen's first load).
 */
export function useLoad<T>(call: (signal: AbortSignal) => Promise<Answer<T>>, deps: unknown[], options: { keepOnReload?: boolean } = {}): [Loaded<T>, () => void] {
  const [round, setRound] = useState(0);
  const generation = useRef({ deps, n: 0 });
  if (deps.length !== generation.current.deps.length || deps.some((value, i) => !Object.is(value, generation.current.deps[i]))) {
    generation.current = { deps, n: generation.current.n + 1 };
  }
  const n = generation.current.n;
  const [loaded, setLoaded] = useState<{ n: number; value: Loaded<T> }>({ n, value: { state: 'loading' } });
  const reloading = useRef(false);
  useLayoutEffect(() => {
    const abort = new AbortController();
    if (!(reloading.current && options.keepOnReload)) setLoaded({ n, value: { state: 'loading' } });
    reloading.current = false;
    call(abort.signal).then(
      (answer) => {
        if (abort.signal.aborted) return;
        if (answer.data !== undefined && answer.response.ok) setLoaded({ n, value: { state: 'ok', data: answer.data } });
        else setLoaded({ n, value: { state: 'error', problem: problemOf(answer.error, answer.response.status) } });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setLoaded({ n, value: { state: 'error', problem: { status: 0, title: 'Network error', detail: error instanceof Error ? error.message : String(error) } } });
      },
    );
    return () => abort.abort();
  }, [n, round]);
  const reload = (): void => {
    reloading.current = true;
    setRound((r) => r + 1);
  };
  return [loaded.n === n ? loaded.value : { state: 'loading' }, reload];
}

/** The usual rendering of a load: a loading line, the alert, or the content. */
export function Load<T>({ loaded, label, children }: { loaded: Loaded<T>; label: string; children: (data: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <p class="loading">Loading {label}…</p>;
  if (loaded.state === 'error') return <ApiAlert problem={loaded.problem} />;
  return <>{children(loaded.data)}</>;
}

/** A table that may scroll sideways on a narrow screen: a named region keyboard users can scroll. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/**
 * A screen that needs a platform right: without it (and without admin), says so instead of
 * asking the API for a 403.
 */
export function NeedsRight({ title, right, children }: { title: string; right: string; children: ComponentChildren }) {
  if (hasRight(right) || hasRight('base-system.admin')) return <>{children}</>;
  return (
    <main>
      <h1>{title}</h1>
      <p>
        This screen needs the platform right <code>{right}</code>, which your user does not hold. An administrator can give you a role that has it.
      </p>
    </main>
  );
}
