/**
 * /streams/triggers/new and /streams/triggers/:id: one trigger in the editor with its dry run
 * (components/trigger-form.tsx), for admins. `?stream=<id>` is the stream it was opened from:
 * a new trigger listens to it, the dry run tries it first, and the way back leads to it.
 */
import { useLocation, useRoute } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../app/api.js';
import { hasRight } from '../app/session.js';
import { type Loaded, Load, useLoad } from '../components/load.js';
import { draftOf, newDraft, type Trigger } from '../components/trigger-draft.js';
import { TriggerForm } from '../components/trigger-form.js';

function useStreamParam(): number | undefined {
  const { query } = useLocation();
  const raw = query['stream'];
  return raw && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** The streams and CI types the form offers, loaded together. */
function useChoices(): Loaded<{ streams: Array<{ id: number; name: string }>; ciTypes: Array<{ id: number; name: string }> }> {
  const [streams] = useLoad((signal) => api.GET('/api/admin/v1/streams', { signal }), []);
  const [types] = useLoad((signal) => api.GET('/api/public/sm/v2/rsm/config-item-types', { signal }), []);
  if (streams.state !== 'ok') return streams;
  if (types.state !== 'ok') return types;
  return { state: 'ok', data: { streams: streams.data.map((s) => ({ id: s.id, name: s.name })), ciTypes: types.data } };
}

function Crumbs({ stream, streams, title }: { stream: number | undefined; streams: ReadonlyArray<{ id: number; name: string }>; title: string }) {
  const name = streams.find((s) => s.id === stream)?.name;
  return (
    <nav class="crumbs" aria-label="Breadcrumb">
      <a href="/streams">Streams</a>
      {stream !== undefined && (
        <>
          {' › '}
          <a href={`/streams?stream=${stream}`}>{name ?? `stream ${stream}`}</a>
        </>
      )}
      {' › '}
      {title}
    </nav>
  );
}

function Editor({ trigger: loaded, stream }: { trigger: Trigger | undefined; stream: number | undefined }) {
  const { route } = useLocation();
  const choices = useChoices();
  const [trigger, setTrigger] = useState(loaded);
  const back = stream !== undefined ? `/streams?stream=${stream}` : '/streams';
  const title = trigger ? trigger.name : 'New trigger';
  return (
    <Load loaded={choices} label="the streams and CI types">
      {({ streams, ciTypes }) => (
        <main class="trigger-editor">
          <Crumbs stream={stream} streams={streams} title={title} />
          <h1>{title}</h1>
          {trigger && (
            <p>
              <a href={`/problems?triggerIds=${trigger.id}`}>Its open problems</a>
            </p>
          )}
          <TriggerForm
            key={trigger?.id ?? 'new'}
            trigger={trigger}
            initial={trigger ? draftOf(trigger) : newDraft(stream)}
            streams={streams}
            ciTypes={ciTypes}
            fromStream={stream ?? trigger?.streamIds[0]}
            onSaved={(saved) => {
              if (trigger) setTrigger(saved);
              else route(`/streams/triggers/${saved.id}${stream !== undefined ? `?stream=${stream}` : ''}`);
            }}
            onDeleted={() => route(back)}
            onCancel={() => route(back)}
          />
        </main>
      )}
    </Load>
  );
}

function ExistingTrigger({ id, stream }: { id: string; stream: number | undefined }) {
  const [loaded] = useLoad((signal) => api.GET('/api/admin/v1/triggers/{id}', { params: { path: { id } }, signal }), [id]);
  return (
    <Load loaded={loaded} label="the trigger">
      {(trigger) => <Editor key={trigger.id} trigger={trigger} stream={stream} />}
    </Load>
  );
}

export default function TriggerScreen() {
  const { params } = useRoute();
  const stream = useStreamParam();
  const id = params['id'];
  if (!hasRight('base-system.admin')) {
    return (
      <main>
        <h1>Trigger</h1>
        <p>
          Triggers are written by administrators: this screen needs the platform right <code>base-system.admin</code>, which your user does not hold.
        </p>
      </main>
    );
  }
  if (id === undefined) return <Editor trigger={undefined} stream={stream} />;
  if (!/^\d+$/.test(id)) {
    return (
      <main>
        <h1>Trigger</h1>
        <p>There is no trigger “{id}”.</p>
      </main>
    );
  }
  return <ExistingTrigger id={id} stream={stream} />;
}
