/**
 * What an operator does to one problem: acknowledge it (or take that back), resolve it by hand
 * with a comment, comment on it. Each is a request that waits for the problem stage's verdict
 * (docs/problems.md), so the button stays busy until it is in; the API's problem is shown beside
 * the form that caused it.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import { ApiAlert } from './load.js';
import type { ProblemDetail } from './problem-query.js';

type Outcome = { data?: unknown; error?: unknown; response: Response };

/** Runs one action at a time; its problem, if any, for the form that ran it. */
function useAction(onDone: () => void) {
  const [busy, setBusy] = useState<string | undefined>();
  const [failed, setFailed] = useState<{ form: string; problem: ApiProblem } | undefined>();
  const run = async (form: string, call: () => Promise<Outcome>): Promise<boolean> => {
    setBusy(form);
    setFailed(undefined);
    try {
      const { data, error, response } = await call();
      if (data === undefined || !response.ok) {
        setFailed({ form, problem: problemOf(error, response.status) });
        return false;
      }
      onDone();
      return true;
    } catch (error) {
      setFailed({ form, problem: { status: 0, title: 'Network error', detail: error instanceof Error ? error.message : String(error) } });
      return false;
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, problemOf: (form: string) => (failed?.form === form ? failed.problem : undefined), run };
}

export function ProblemActions({ problem, onChanged }: { problem: ProblemDetail; onChanged: () => void }) {
  const { busy, problemOf: failure, run } = useAction(onChanged);
  const [ackNote, setAckNote] = useState('');
  const [resolution, setResolution] = useState('');
  const [comment, setComment] = useState('');
  const path = { params: { path: { id: problem.id } } };
  const open = problem.dateEnd === null;
  return (
    <section aria-labelledby="actions-h" class="actions">
      <h2 id="actions-h">Actions</h2>
      {open && (
        <form
          class="action"
          onSubmit={async (e) => {
            e.preventDefault();
            if (problem.acknowledged) {
              await run('ack', () => api.POST('/api/public/sm/v1/problems/{id}/unacknowledge', path));
            } else {
              const text = ackNote.trim();
              if (await run('ack', () => api.POST('/api/public/sm/v1/problems/{id}/acknowledge', { ...path, body: text ? { comment: text } : {} }))) setAckNote('');
            }
          }}
        >
          {!problem.acknowledged && (
            <>
              <label for="ack-note">Acknowledgement note (optional)</label>
              <input id="ack-note" maxLength={4000} value={ackNote} onInput={(e) => setAckNote(e.currentTarget.value)} />
            </>
          )}
          <button type="submit" class="primary" disabled={busy !== undefined}>
            {problem.acknowledged ? 'Unacknowledge' : 'Acknowledge'}
          </button>
          <ApiAlert problem={failure('ack')} />
        </form>
      )}
      {open && (
        <form
          class="action"
          onSubmit={async (e) => {
            e.preventDefault();
            const text = resolution.trim();
            if (await run('resolve', () => api.POST('/api/public/sm/v1/problems/{id}/resolve', { ...path, body: { comment: text } }))) setResolution('');
          }}
        >
          <label for="resolution">Resolution</label>
          <textarea
            id="resolution"
            rows={2}
            required
            placeholder="What was done (required)"
            maxLength={4000}
            value={resolution}
            onInput={(e) => setResolution(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy !== undefined}>
            Resolve
          </button>
          <ApiAlert problem={failure('resolve')} />
        </form>
      )}
      <form
        class="action"
        onSubmit={async (e) => {
          e.preventDefault();
          const text = comment.trim();
          if (await run('comment', () => api.POST('/api/public/sm/v1/problems/{id}/comments', { ...path, body: { text } }))) setComment('');
        }}
      >
        <label for="comment">Comment</label>
        <textarea id="comment" rows={3} required maxLength={4000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
        <button type="submit" disabled={busy !== undefined}>
          Add comment
        </button>
        <ApiAlert problem={failure('comment')} />
      </form>
      {busy && (
        <p class="muted" role="status">
          Waiting for the problem stage…
        </p>
      )}
    </section>
  );
}
