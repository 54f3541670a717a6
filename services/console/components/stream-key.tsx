/**
 * A stream's key, for admins: hidden until asked, copied with a button, and rotated behind a
 * confirmation. A rotated key is shown once, with its own copy button, since senders must be
 * given it before they are refused with the old one.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem } from '../app/api.js';
import { send } from './admin-kit.js';
import { ConfirmDialog } from './confirm.js';
import { ApiAlert } from './load.js';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState<string | undefined>();
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied.');
    } catch {
      setDone('The browser refused to copy: select the text and copy it by hand.');
    }
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span class="muted" role="status">
        {done ?? ''}
      </span>
    </>
  );
}

export function StreamKey({ id, name, streamKey, onRotated }: { id: number; name: string; streamKey: string; onRotated: (key: string) => void }) {
  const [shown, setShown] = useState(false);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [fresh, setFresh] = useState<string | undefined>();
  const rotate = async (): Promise<void> => {
    setBusy(true);
    const answer = await send(api.POST('/api/admin/v1/streams/{id}/rotate-key', { params: { path: { id: String(id) } } }));
    setBusy(false);
    if (answer.problem) return setProblem(answer.problem);
    setAsking(false);
    setProblem(undefined);
    setFresh(answer.data!.key);
    setShown(false);
    onRotated(answer.data!.key);
  };
  return (
    <section class="stream-key-panel" aria-labelledby="stream-key-h">
      <h2 id="stream-key-h">Key</h2>
      {fresh ? (
        <div class="stream-fresh-key" role="alert">
          <p>
            <strong>The new key of {name}.</strong> Give it to the senders now: it is shown here only once, and the old key no longer works.
          </p>
          <code class="stream-key-text">{fresh}</code> <CopyButton text={fresh} label="Copy new key" />{' '}
          <button type="button" onClick={() => setFresh(undefined)}>
            Done
          </button>
        </div>
      ) : (
        <p class="stream-key-line">
          <code class="stream-key-text" aria-label={shown ? 'Stream key' : 'Stream key, hidden'}>
            {shown ? streamKey : '•'.repeat(24)}
          </code>{' '}
          <button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
            {shown ? 'Hide key' : 'Show key'}
          </button>{' '}
          <CopyButton text={streamKey} label="Copy key" />
        </p>
      )}
      <p class="muted">Senders give the key as the stream-data API's streamKey (or as the password of an agent's basic authentication).</p>
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Rotate key
      </button>
      <ConfirmDialog
        open={asking}
        title={`Rotate the key of ${name}?`}
        confirmLabel="Rotate key"
        busy={busy}
        onConfirm={() => void rotate()}
        onCancel={() => {
          setAsking(false);
          setProblem(undefined);
        }}
      >
        <p>A new key is made and shown once. Senders still using the current key are refused from then on, until they are given the new one.</p>
        <ApiAlert problem={problem} />
      </ConfirmDialog>
    </section>
  );
}
