/**
 * The problem list's filters as one form: applied on submit (checkboxes at once), written to the
 * URL by the screen. Times are typed in the browser's zone, or in UTC when the UTC switch is on.
 */
import { useState } from 'preact/hooks';
import { utc } from '../app/time.js';
import type { ProblemView } from './problem-query.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local value, in the shown zone. */
export function localInput(iso: string, inUtc: boolean): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (inUtc) return d.toISOString().slice(0, 16);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (in the shown zone) as an ISO instant. */
export function isoOfInput(value: string, inUtc: boolean): string {
  if (!value) return '';
  const d = new Date(inUtc ? `${value}Z` : value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

export interface TriggerOption {
  id: number;
  name: string;
}

export function ProblemFilters({ view, triggers, onApply }: { view: ProblemView; triggers?: TriggerOption[]; onApply: (next: ProblemView) => void }) {
  const inUtc = utc.value;
  const submit = (form: HTMLFormElement): void => {
    const data = new FormData(form);
    const text = (name: string): string => String(data.get(name) ?? '').trim();
    onApply({
      ...view,
      search: text('search'),
      configItemIds: list(text('configItemIds')).join(','),
      withDescendants: data.get('withDescendants') === 'on',
      priorities: [1, 2, 3, 4].filter((n) => data.get(`p${n}`) === 'on'),
      triggerIds: list(text('triggerIds')).join(','),
      tags: list(text('tags')),
      from: isoOfInput(text('from'), inUtc),
      to: isoOfInput(text('to'), inUtc),
    });
  };
  const clear = (): void => onApply({ ...view, search: '', configItemIds: '', withDescendants: false, priorities: [], triggerIds: '', tags: [], from: '', to: '' });
  const zone = inUtc ? 'UTC' : 'local time';
  // Open on a wide screen; on a phone folded away until asked for (its summary counts them).
  const [wide] = useState(() => window.matchMedia('(min-width: 801px)').matches);
  const active =
    [view.search, view.configItemIds, view.triggerIds, view.from, view.to].filter((v) => v !== '').length + (view.priorities.length > 0 ? 1 : 0) + (view.tags.length > 0 ? 1 : 0);
  return (
    <details class="pfilters-box" open={wide}>
      <summary>Filters{active > 0 ? ` (${active} active)` : ''}</summary>
      <form
        class="pfilters"
        aria-label="Filters"
        // Keyed by the view and the zone, so the fields show what the URL says after navigation.
        key={`${JSON.stringify(view)}:${inUtc}`}
        onSubmit={(event) => {
          event.preventDefault();
          submit(event.currentTarget);
        }}
      >
        <div class="field">
          <label for="pf-search">Search</label>
          <input id="pf-search" name="search" type="search" defaultValue={view.search} placeholder="trigger or CI name" />
        </div>
        <div class="field">
          <label for="pf-ci">CI ids</label>
          <input id="pf-ci" name="configItemIds" inputMode="numeric" defaultValue={view.configItemIds} placeholder="e.g. 12,40" aria-describedby="pf-ci-hint" />
          <span id="pf-ci-hint" class="visually-hidden">
            Comma-separated CI ids
          </span>
        </div>
        <div class="field check-field">
          <label class="check">
            <input type="checkbox" name="withDescendants" defaultChecked={view.withDescendants} onChange={(e) => e.currentTarget.form?.requestSubmit()} /> With descendants
          </label>
        </div>
        <fieldset class="field prio-set">
          <legend>Priority</legend>
          {[1, 2, 3, 4].map((n) => (
            <label key={n} class="check">
              <input type="checkbox" name={`p${n}`} defaultChecked={view.priorities.includes(n)} onChange={(e) => e.currentTarget.form?.requestSubmit()} /> P{n}
            </label>
          ))}
        </fieldset>
        <div class="field">
          <label for="pf-trigger">Trigger ids</label>
          <input
            id="pf-trigger"
            name="triggerIds"
            defaultValue={view.triggerIds}
            placeholder="e.g. 3"
            list={triggers && triggers.length > 0 ? 'pf-trigger-list' : undefined}
            aria-describedby="pf-trigger-hint"
          />
          <span id="pf-trigger-hint" class="visually-hidden">
            Comma-separated trigger ids
          </span>
          {triggers && (
            <datalist id="pf-trigger-list">
              {triggers.map((t) => (
                <option key={t.id} value={String(t.id)}>
                  {t.name}
                </option>
              ))}
            </datalist>
          )}
        </div>
        <div class="field">
          <label for="pf-tags">Tags</label>
          <input id="pf-tags" name="tags" defaultValue={view.tags.join(', ')} placeholder="name or name=value, …" aria-describedby="pf-tags-hint" />
          <span id="pf-tags-hint" class="visually-hidden">
            Comma-separated; every tag must match
          </span>
        </div>
        <div class="field">
          <label for="pf-from">From ({zone})</label>
          <input id="pf-from" name="from" type="datetime-local" defaultValue={localInput(view.from, inUtc)} />
        </div>
        <div class="field">
          <label for="pf-to">To ({zone})</label>
          <input id="pf-to" name="to" type="datetime-local" defaultValue={localInput(view.to, inUtc)} />
        </div>
        <div class="field buttons">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button type="button" onClick={clear}>
            Clear filters
          </button>
        </div>
      </form>
    </details>
  );
}
