/**
 * The console's shell: the router (preact-iso; every screen and selection is a URL), the session
 * gate (signed out: the sign-in screen, then back), the navigation landmark. Screens other than
 * sign-in load on demand.
 */
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { matchPath } from '../../runtime/http/path-match.js';
import { Nav } from '../components/nav.js';
import NotFound from '../screens/not-found.js';
import SignIn from '../screens/sign-in.js';
import { loadSession, session } from './session.js';

const Problems = lazy(() => import('../screens/problems.js'));
const ProblemPage = lazy(() => import('../screens/problem.js'));
const Cmdb = lazy(() => import('../screens/cmdb.js'));
const CiPage = lazy(() => import('../screens/ci.js'));
const Maintenance = lazy(() => import('../screens/maintenance.js'));
const MaintenanceMode = lazy(() => import('../screens/maintenance-mode.js'));
const Sla = lazy(() => import('../screens/sla.js'));
const SlaReport = lazy(() => import('../screens/sla-report.js'));
const Streams = lazy(() => import('../screens/streams.js'));
const Trigger = lazy(() => import('../screens/trigger.js'));
const Admin = lazy(() => import('../screens/admin.js'));

/** Every screen by its path (preact-iso patterns, in the router's order): the router's table, and what is fetched early. */
const SCREENS = [
  ['/problems', Problems],
  ['/problems/:id', ProblemPage],
  ['/cmdb', Cmdb],
  ['/cmdb/ci/:id', CiPage],
  ['/maintenance', Maintenance],
  ['/maintenance/new', MaintenanceMode],
  ['/maintenance/:id', MaintenanceMode],
  ['/sla', Sla],
  ['/sla/reports/:id', SlaReport],
  ['/streams', Streams],
  ['/streams/triggers/new', Trigger],
  ['/streams/triggers/:id', Trigger],
  ['/admin', Admin],
  ['/admin/:section', Admin],
] as const;

/** The screen a console URL opens, so that its code is fetched while the session is asked for, not after. */
const screenOf = (path: string) => SCREENS.find(([pattern]) => matchPath(pattern, path))?.[1];

/**
 * The first date format a page makes costs Chromium 20–50 ms (its locale data; measured in the
 * console bench's profiles of the month view). Made while the session and the screen's code are
 * on their way, it is not paid in the screen's first render, before its request can start.
 */
function warmDateFormats(): void {
  new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(0);
}

function Redirect({ to }: { to: string }) {
  const { route } = useLocation();
  useEffect(() => route(to, true), [to]);
  return null;
}

function Gate() {
  const { path, url } = useLocation();
  if (session.value === undefined) return <p class="loading">Loading…</p>;
  if (session.value === null) {
    if (path === '/sign-in') return <SignIn />;
    return <Redirect to={`/sign-in?next=${encodeURIComponent(url)}`} />;
  }
  if (path === '/sign-in') return <Redirect to="/problems" />;
  return (
    <>
      <Nav />
      <ErrorBoundary>
        <Router>
          <Route path="/" component={() => <Redirect to="/problems" />} />
          {SCREENS.map(([path, screen]) => (
            <Route key={path} path={path} component={screen} />
          ))}
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </>
  );
}

export function App() {
  useEffect(() => {
    void loadSession();
    screenOf(location.pathname)
      ?.preload()
      .catch(() => undefined);
    warmDateFormats();
  }, []);
  return (
    <LocationProvider>
      <Gate />
    </LocationProvider>
  );
}
