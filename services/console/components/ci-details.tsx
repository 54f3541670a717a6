/** A CI's fields: type, owner, parent, description, labels, CMDB system and links, who made it and when. */
import { CiTypeIcon } from './ci-type-icon.js';
import { type ConfigItem, ciPath, labelText } from './cmdb-model.js';
import { Time } from './time.js';

export function CiDetails({ ci, onEdit }: { ci: ConfigItem; onEdit: () => void }) {
  const labels = Object.entries(ci.labels ?? {});
  return (
    <section class="ci-section" aria-labelledby="ci-details-h">
      <div class="section-head">
        <h2 id="ci-details-h">Details</h2>
        <button type="button" onClick={onEdit}>
          Edit
        </button>
      </div>
      <dl class="ci-fields">
        <div>
          <dt>Type</dt>
          <dd>
            <CiTypeIcon typeId={ci.configItemType.id} /> {ci.configItemType.name}
          </dd>
        </div>
        <div>
          <dt>Owner workgroup</dt>
          <dd>{ci.ownerWorkGroup.name}</dd>
        </div>
        <div>
          <dt>Parent</dt>
          <dd>{ci.parent ? <a href={ciPath(ci.parent.id)}>{ci.parent.name}</a> : <span class="muted">None (top level)</span>}</dd>
        </div>
        <div class="wide">
          <dt>Description</dt>
          <dd class="prewrap">{ci.description || <span class="muted">None</span>}</dd>
        </div>
        <div class="wide">
          <dt>Labels</dt>
          <dd>
            {labels.length === 0 ? (
              <span class="muted">None</span>
            ) : (
              <ul class="ci-labels">
                {labels.map(([name, value]) => (
                  <li key={name}>
                    <a class="label-chip" href={`/cmdb?label=${encodeURIComponent(Array.isArray(value) || value === null ? name : `${name}=${value}`)}`}>
                      {labelText(name, value)}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div>
          <dt>CMDB</dt>
          <dd>{ci.cmdbSystem ? ci.cmdbSystem.name : 'The default CMDB'}</dd>
        </div>
        {ci.cmdbLinks.length > 0 && (
          <div>
            <dt>External entities</dt>
            <dd>
              {ci.cmdbLinks.map((l) => (
                <span key={`${l.instanceId}-${l.entityId}`} class="mono">
                  {l.instanceId}:{l.entityId}{' '}
                </span>
              ))}
            </dd>
          </div>
        )}
        <div>
          <dt>Created</dt>
          <dd>
            <Time iso={ci.entityInfo.createdAt} /> by {ci.entityInfo.createdByName}
          </dd>
        </div>
        <div>
          <dt>Changed</dt>
          <dd>
            <Time iso={ci.entityInfo.updatedAt} /> by {ci.entityInfo.updatedByName}
          </dd>
        </div>
      </dl>
    </section>
  );
}
