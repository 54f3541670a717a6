/**
 * The trigger editor: name, streams and conditions, then what a matching record does
 * (trigger-targets.tsx), with the dry run beside it (trigger-dry-run.tsx). A dry run and a save
 * are refused alike with the fields to fix; their messages are shown at those fields. Nothing is
 * stored until Save.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, type ApiProblem, fieldError } from '../app/api.js';
import { DeleteButton, send } from './admin-kit.js';
import { Field } from './cmdb-field.js';
import { ApiAlert } from './load.js';
import { TriggerConditions } from './trigger-conditions.js';
import { bodyOf, type Draft, type Trigger, unprefixed } from './trigger-draft.js';
import { TriggerDryRun } from './trigger-dry-run.js';
import { TriggerTargets } from './trigger-targets.js';

/** What the form needs of a CI type. */
interface CiType {
  id: number;
  name: string;
}

interface Props {
  trigger?: Trigger;
  initial: Draft;
  streams: ReadonlyArray<{ id: number; name: string }>;
  ciTypes: readonly CiType[];
  /** The stream the editor was opened from (the dry run's first choice). */
  fromStream: number | undefined;
  onSaved: (trigger: Trigger) => void;
  onDeleted: () => void;
  onCancel: () => void;
}

/** Paths the form shows a message at (a problem naming only others is shown whole). */
const PLACED = /^\/(name|description|enabled|streamIds|match|ci|priority|resolve|tags|incidents|influence|lateWindowMinutes)(\/|$)/;

export function TriggerForm({ trigger, initial, streams, ciTypes, fromStream, onSaved, onDeleted, onCancel }: Props) {
  const [d, setD] = useState<Draft>(initial);
  const [version, setVersion] = useState(0);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const set = (change: Partial<Draft>): void => {
    setD((old) => ({ ...old, ...change }));
    setVersion((n) => n + 1);
    setSaved(undefined);
  };
  const built = useMemo(() => bodyOf(d), [d]);
  const error = (path: string): string | undefined => fieldError(problem, path);
  const placedAll = problem?.errors?.length ? problem.errors.every((e) => PLACED.test(e.path)) : false;

  const save = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    if (!built.body) return setProblem(built.problem);
    setBusy(true);
    const answer = trigger
      ? await send(api.PATCH('/api/admin/v1/triggers/{id}', { params: { path: { id: String(trigger.id) } }, body: built.body }))
      : await send(api.POST('/api/admin/v1/triggers', { body: built.body }));
    setBusy(false);
    setProblem(answer.problem);
    if (answer.data) {
      setSaved(`Saved ${answer.data.name}.`);
      onSaved(answer.data);
    }
  };

  const toggleStream = (id: number, on: boolean): void => set({ streamIds: on ? [...d.streamIds.filter((s) => s !== id), id] : d.streamIds.filter((s) => s !== id) });

  return (
    <div class="tform-layout">
      <form class="tform" aria-label={trigger ? `Edit ${trigger.name}` : 'New trigger'} onSubmit={(e) => void save(e)} noValidate>
        <fieldset class="tform-group" disabled={busy}>
          <legend>Trigger</legend>
          <Field id="tform-name" label="Name" error={error('name')}>
            {(a11y) => <input {...a11y} value={d.name} autoComplete="off" maxLength={255} onInput={(e) => set({ name: e.currentTarget.value })} />}
          </Field>
          <Field id="tform-description" label="Description" error={error('description')}>
            {(a11y) => <textarea {...a11y} rows={2} value={d.description} onInput={(e) => set({ description: e.currentTarget.value })} />}
          </Field>
          <label class="check">
            <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} /> Enabled
          </label>
          <fieldset class={`checks${error('streamIds') ? ' invalid' : ''}`} aria-describedby={error('streamIds') ? 'tform-streams-error' : undefined}>
            <legend>Streams it listens to</legend>
            {streams.length === 0 && <p class="muted">No stream yet.</p>}
            {streams.map((s) => (
              <label key={s.id} class="inline">
                <input type="checkbox" checked={d.streamIds.includes(s.id)} onChange={(e) => toggleStream(s.id, e.currentTarget.checked)} /> {s.name}
              </label>
            ))}
            {error('streamIds') && (
              <p class="field-error" id="tform-streams-error">
                {error('streamIds')}
              </p>
            )}
          </fieldset>
        </fieldset>
        <TriggerConditions match={d.match} onChange={(match) => set({ match })} error={error} />
        <TriggerTargets d={d} set={set} error={error} ciTypes={ciTypes} />
        {problem &&
          (placedAll ? (
            <p class="error" role="alert">
              Some fields need fixing: see the messages at them.
            </p>
          ) : (
            <ApiAlert problem={problem} />
          ))}
        <p class="admin-notice" role="status">
          {saved ?? ''}
        </p>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          {trigger && (
            <DeleteButton what={trigger.name} remove={() => send(api.DELETE('/api/admin/v1/triggers/{id}', { params: { path: { id: String(trigger.id) } } }))} onDone={onDeleted} />
          )}
        </div>
      </form>
      <TriggerDryRun
        current={() => built}
        version={version}
        streams={streams}
        streamIds={d.streamIds}
        initialStream={fromStream}
        onProblem={(p) => setProblem(p ? unprefixed(p) : undefined)}
      />
    </div>
  );
}
