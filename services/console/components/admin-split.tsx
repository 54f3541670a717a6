/**
 * The layout of an admin section that lists things and changes one at a time: the list on the
 * left (a "New …" button, then a table whose Name column links `/admin/<path>?<param>=<key>`),
 * and on the right the New panel (`?new=1`), the selected item's panel (heading, an optional
 * Delete button, its content), or a hint.
 */
import type { ComponentChildren } from 'preact';
import type { ApiProblem } from '../app/api.js';
import { DeleteButton, useSectionQuery } from './admin-kit.js';
import { Load, type Loaded, TableScroll } from './load.js';

/** A column of the list besides Name: its header and its cell (`class` on the cell). */
export interface AdminColumn<T> {
  label: string;
  cell: (item: T) => ComponentChildren;
  class?: string;
}

/** An item of a list: its key in the URL is its id, or its name where it has no id (roles). */
type AdminItem = { id?: number; name: string };

/** What a section is called: `/admin/<path>?<param>=<key>`, "New <noun>", its list's "<plural>". */
export interface AdminSection {
  path: string;
  param: string;
  noun: string;
  plural: string;
}

export interface AdminSplitProps<T extends AdminItem> {
  loaded: Loaded<T[]>;
  /** The headings' ids are `<param>-h` and `new-<param>-h`; the caption and the table's region are named `plural`. */
  section: AdminSection;
  /** Columns before Name and after it; `badge` follows the Name link in its cell. */
  before?: Array<AdminColumn<T>>;
  columns?: Array<AdminColumn<T>>;
  badge?: (item: T) => ComponentChildren;
  /** Said instead of the table when the list is empty; without it the table is shown. */
  empty?: string;
  /** Below the table, in the left column. */
  below?: (list: T[]) => ComponentChildren;
  /** The New panel's content; `open` reloads the list and shows the item just made (its key). */
  create: (open: (key: string | number) => void, list: T[]) => ComponentChildren;
  /** The selected item's panel, below its heading and Delete button. */
  detail: (item: T, list: T[]) => ComponentChildren;
  /** Deletes the item (the Delete button is left out without it, or where `removable` says no). */
  remove?: (item: T) => Promise<{ problem?: ApiProblem }>;
  removable?: (item: T) => boolean;
  /** Reloads the list (after a delete, and by `open`). */
  reload: () => void;
  /** Shown when nothing is selected ("Choose a …"). */
  hint: string;
}

const keyOf = (item: AdminItem): string | number => item.id ?? item.name;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
/** "Workgroups" is loaded as "workgroups"; "CMDB systems" stays as it is. */
const lowerFirst = (text: string) => (/^.[A-Z]/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1));

export function AdminSplit<T extends AdminItem>(props: AdminSplitProps<T>) {
  const { path, param, noun, plural } = props.section;
  const { before = [], columns = [], badge, remove, removable } = props;
  const [query, setQuery] = useSectionQuery();
  const wanted = query[param];
  // A numeric key matches the query's value read as a number (`?group=01` is group 1), a name as it is.
  const isSelected = (item: T) => {
    const key = keyOf(item);
    return typeof key === 'number' ? key === Number(wanted) : key === wanted;
  };
  const open = (key: string | number) => {
    props.reload();
    setQuery({ new: null, [param]: String(key) });
  };
  return (
    <Load loaded={props.loaded} label={lowerFirst(plural)}>
      {(list) => {
        const selected = list.find(isSelected);
        return (
          <div class="admin-split">
            <div>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setQuery({ new: '1', [param]: null })}>
                  New {noun}
                </button>
              </div>
              {props.empty !== undefined && list.length === 0 ? (
                <p class="muted">{props.empty}</p>
              ) : (
                <TableScroll label={plural}>
                  <table>
                    <caption class="visually-hidden">{plural}</caption>
                    <thead>
                      <tr>
                        {before.map((c) => (
                          <th key={c.label} scope="col">
                            {c.label}
                          </th>
                        ))}
                        <th scope="col">Name</th>
                        {columns.map((c) => (
                          <th key={c.label} scope="col">
                            {c.label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((item) => {
                        const current = isSelected(item);
                        const cells = (of: Array<AdminColumn<T>>) =>
                          of.map((c) => (
                            <td key={c.label} class={c.class}>
                              {c.cell(item)}
                            </td>
                          ));
                        return (
                          <tr key={keyOf(item)} class={current ? 'selected' : undefined}>
                            {cells(before)}
                            <td>
                              <a href={`/admin/${path}?${param}=${encodeURIComponent(String(keyOf(item)))}`} aria-current={current ? 'true' : undefined}>
                                {item.name}
                              </a>
                              {badge?.(item)}
                            </td>
                            {cells(columns)}
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </TableScroll>
              )}
              {props.below?.(list)}
            </div>
            <div>
              {query['new'] === '1' ? (
                <section aria-labelledby={`new-${param}-h`} class="admin-panel">
                  <h3 id={`new-${param}-h`}>New {noun}</h3>
                  {props.create(open, list)}
                </section>
              ) : selected ? (
                <section aria-labelledby={`${param}-h`} class="admin-panel" key={keyOf(selected)}>
                  <div class="section-head">
                    <h3 id={`${param}-h`}>{`${capital(noun)} ${selected.name}`}</h3>
                    {remove && (removable?.(selected) ?? true) && (
                      <DeleteButton
                        what={`the ${noun} ${selected.name}`}
                        remove={() => remove(selected)}
                        onDone={() => {
                          props.reload();
                          setQuery({ [param]: null });
                        }}
                      />
                    )}
                  </div>
                  {props.detail(selected, list)}
                </section>
              ) : (
                <p class="muted">{wanted ? `No such ${noun}.` : props.hint}</p>
              )}
            </div>
          </div>
        );
      }}
    </Load>
  );
}
