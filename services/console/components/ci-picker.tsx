/**
 * Choosing a CI by name: a search field, and the matches (the tree listing's search, at most 20)
 * as a list of buttons; the choice is then shown with a button to change it. Used for a new CI's
 * parent, a move, and the CI to link.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../app/api.js';
import { CiTypeIcon } from './ci-type-icon.js';
import { Field } from './cmdb-field.js';
import type { TreeCi } from './cmdb-model.js';

export interface PickedCi {
  id: number;
  name: string;
}

interface Props {
  id: string;
  label: string;
  value: PickedCi | null;
  onChange: (ci: PickedCi | null) => void;
  error?: string | undefined;
  hint?: string;
  /** CIs not to offer (the CI itself). */
  exclude?: readonly number[];
}

export function CiPicker({ id, label, value, onChange, error, hint, exclude = [] }: Props) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<{ items: TreeCi[]; total: number } | undefined>();
  const [failed, setFailed] = useState<string | undefined>();

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === '' || value) {
      setFound(undefined);
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      const { data } = await api.GET('/api/public/sm/v2/rsm/config-items/{parentId}/children', {
        params: { path: { parentId: '0' }, query: { search: wanted, limit: 20 } },
      });
      if (!current) return;
      if (data) {
        setFound({ items: data.items.filter((c) => !exclude.includes(c.id)), total: data.total });
        setFailed(undefined);
      } else setFailed('The search failed; try again.');
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, value]);

  if (value) {
    return (
      <div class={`field${error ? ' invalid' : ''}`}>
        <span class="label" id={`${id}-label`}>
          {label}
        </span>
        <div class="picked" role="group" aria-labelledby={`${id}-label`} aria-describedby={error ? `${id}-error` : undefined}>
          <strong>{value.name}</strong> <span class="muted">#{value.id}</span>{' '}
          <button type="button" onClick={() => onChange(null)}>
            Change
          </button>
        </div>
        {error && (
          <span id={`${id}-error`} class="field-error">
            {error}
          </span>
        )}
      </div>
    );
  }
  return (
    <div class="ci-picker">
      <Field id={id} label={label} error={error} hint={hint ?? 'Type part of a name, then choose from the matches'}>
        {(a11y) => <input {...a11y} type="search" value={text} autoComplete="off" onInput={(e) => setText(e.currentTarget.value)} />}
      </Field>
      {failed && <p class="error">{failed}</p>}
      {found && (
        <div class="matches">
          <p class="muted" role="status">
            {found.total === 0
              ? 'No CI matches.'
              : found.total > found.items.length
                ? `First ${found.items.length} of ${found.total} matches:`
                : `${found.total} ${found.total === 1 ? 'match' : 'matches'}:`}
          </p>
          <ul aria-label={`Matches for ${label}`}>
            {found.items.map((ci) => (
              <li key={ci.id}>
                <button
                  type="button"
                  class="match"
                  onClick={() => {
                    onChange({ id: ci.id, name: ci.name });
                    setText('');
                  }}
                >
                  <CiTypeIcon typeId={ci.configItemType.id} /> {ci.name}
                  <span class="muted">
                    {' '}
                    · {ci.configItemType.name}
                    {ci.path && ci.path.length > 0 ? ` · in ${ci.path.map((p) => p.name).join(' › ')}` : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
