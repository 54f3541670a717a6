/**
 * The console's navigation landmark: a link per screen the signed-in user has the right to read
 * (the API would refuse the others anyway), the UTC switch and sign-out.
 */
import { useLocation } from 'preact-iso';
import { hasRight, session, signOut } from '../app/session.js';
import { setUtc, utc } from '../app/time.js';

/** Each screen and the platform right it needs (none: every user, filtered by CI rights). */
export const SCREENS: ReadonlyArray<{ path: string; label: string; right?: string }> = [
  { path: '/problems', label: 'Problems' },
  { path: '/cmdb', label: 'CMDB' },
  { path: '/maintenance', label: 'Maintenance', right: 'base-system.rsm-maintenance.read' },
  { path: '/sla', label: 'SLA', right: 'base-system.sla.read' },
  { path: '/streams', label: 'Streams', right: 'base-system.streams.read' },
  { path: '/admin', label: 'Admin', right: 'base-system.admin' },
];

export function Nav() {
  const { path, route } = useLocation();
  const visible = SCREENS.filter((s) => !s.right || hasRight(s.right) || hasRight('base-system.admin'));
  return (
    <header class="top">
      <nav aria-label="Main">
        <ul>
          {visible.map((s) => (
            <li key={s.path}>
              <a href={s.path} aria-current={path === s.path || path.startsWith(`${s.path}/`) ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="who">
        <label class="switch">
          <input type="checkbox" checked={utc.value} onChange={(e) => setUtc(e.currentTarget.checked)} /> UTC
        </label>
        <span>{session.value?.user.name}</span>
        <button
          type="button"
          onClick={async () => {
            await signOut();
            route('/sign-in');
          }}
        >
          Sign out
        </button>
      </div>
    </header>
  );
}
