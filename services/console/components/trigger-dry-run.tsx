/**
 * The trigger editor's dry run (POST /api/admin/v1/triggers/dry-run): the trigger as it stands in
 * the form, tried on a stream's latest records (at most 1 000), and the CIs it would open
 * problems on, counted as the problem stage would. Nothing is stored; a result older than the
 * form's last change says so.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { send } from './admin-kit.js';
import { TableScroll } from './load.js';
import { Time } from './time.js';
import type { TriggerBody } from './trigger-draft.js';

type DryRun = operations['admin.dryRunTrigger']['responses'][200]['content']['application/json'];

interface Props {
  /** The body the form makes as it stands, or the problem that keeps it from being one. */
  current: () => { body?: TriggerBody; problem?: ApiProblem };
  /** The form's version: a result from an older one is marked stale. */
  version: number;
  streams: ReadonlyArray<{ id: number; name: string }>;
  streamIds: number[];
  initialStream: number | undefined;
  /** The dry run's refusal, for the form to show at its fields (or undefined when it passed). */
  onProblem: (problem: ApiProblem | undefined) => void;
}

export function TriggerDryRun({ current, version, streams, streamIds, initialStream, onProblem }: Props) {
  const [stream, setStream] = useState<string>(initialStream !== undefined ? String(initialStream) : '');
  const [records, setRecords] = useState('1000');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ data: DryRun; version: number } | undefined>();
  const choices = streams.filter((s) => streamIds.includes(s.id));
  const chosen = choices.some((s) => String(s.id) === stream) ? stream : choices[0] ? String(choices[0].id) : '';
  const count = Number(records);
  const countOk = Number.isInteger(count) && count >= 1 && count <= 1000;

  const run = async (): Promise<void> => {
    const { body, problem } = current();
    if (!body) {
      onProblem(problem);
      setResult(undefined);
      return;
    }
    setBusy(true);
    const answer = await send(api.POST('/api/admin/v1/triggers/dry-run', { body: { trigger: body, ...(chosen ? { streamId: Number(chosen) } : {}), records: count } }));
    setBusy(false);
    onProblem(answer.problem);
    setResult(answer.data ? { data: answer.data, version } : undefined);
  };

  return (
    <section class="tform-dry-run" aria-labelledby="tdry-h">
      <h2 id="tdry-h">Dry run</h2>
      <p class="hint">Tries the trigger as it stands in the form on the stream's latest records, oldest first. Nothing is saved.</p>
      <div class="inline-form">
        <label for="tdry-stream">Stream</label>
        <select id="tdry-stream" value={chosen} onChange={(e) => setStream(e.currentTarget.value)} disabled={choices.length === 0}>
          {choices.length === 0 && <option value="">Choose the trigger's streams first</option>}
          {choices.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
        <label for="tdry-records">Records</label>
        <input
          id="tdry-records"
          type="number"
          min={1}
          max={1000}
          value={records}
          class="tdry-records"
          aria-invalid={countOk ? undefined : true}
          onInput={(e) => setRecords(e.currentTarget.value)}
        />
        <button type="button" class="primary" onClick={() => void run()} disabled={busy || !countOk}>
          {busy ? 'Trying…' : 'Dry run'}
        </button>
      </div>
      {!countOk && <p class="field-error">Records: a whole number from 1 to 1000.</p>}
      <div aria-live="polite">{result && <DryRunResult data={result.data} stale={result.version !== version} streams={streams} />}</div>
    </section>
  );
}

function DryRunResult({ data, stale, streams }: { data: DryRun; stale: boolean; streams: ReadonlyArray<{ id: number; name: string }> }) {
  const name = streams.find((s) => s.id === data.streamId)?.name ?? `stream ${data.streamId}`;
  return (
    <div class="tdry-result">
      {stale && <p class="notice">The form changed since this dry run: run it again to see the trigger as it stands.</p>}
      <p role="status">
        {data.examined === 0 ? (
          `${name} holds no record yet.`
        ) : (
          <>
            {data.examined} records of {name} examined (<Time iso={data.from} /> to <Time iso={data.to} />
            ): {data.matched} met the conditions
            {data.withoutCi > 0 ? `, ${data.withoutCi} of them naming no CI the CMDB holds` : ''}; {data.cis.length === 1 ? '1 CI' : `${data.cis.length} CIs`} would be hit.
          </>
        )}
      </p>
      {data.cis.length > 0 && (
        <TableScroll label="CIs the trigger would hit">
          <table>
            <caption class="visually-hidden">CIs the trigger would hit, most problems first</caption>
            <thead>
              <tr>
                <th scope="col">CI</th>
                <th scope="col">Hits</th>
                <th scope="col">Problems opened</th>
                <th scope="col">Resolved</th>
                <th scope="col">Open at the end</th>
                <th scope="col">Priority</th>
                <th scope="col">First hit</th>
                <th scope="col">Last hit</th>
              </tr>
            </thead>
            <tbody>
              {data.cis.map((c) => (
                <tr key={c.ciId}>
                  <th scope="row">
                    <a href={`/cmdb/ci/${c.ciId}`}>{c.ciName}</a>
                  </th>
                  <td>{c.hits}</td>
                  <td>{c.opened}</td>
                  <td>{c.resolved}</td>
                  <td>{c.openAtEnd ? 'Yes' : 'No'}</td>
                  <td>{c.priority === null ? '—' : `P${c.priority}`}</td>
                  <td>
                    <Time iso={c.firstHitAt} />
                  </td>
                  <td>
                    <Time iso={c.lastHitAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
