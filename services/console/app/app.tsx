/**
 * The console's shell: the router (preact-iso; every screen and selection is a URL), the session
 * gate (signed out: the sign-in screen, then back), the navigation landmark. Screens other than
 * sign-in load on demand.
 */
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
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

/** The screen a console URL opens, so that its code is fetched while the session is asked for, not after. */
function screenOf(path: string): { preload: () => Promise<unknown> } | undefined {
  const [, first, second] = path.split('/');
  const one = second !== undefined && second !== '';
  switch (first) {
    case 'problems':
      return one ? ProblemPage : Problems;
    case 'cmdb':
      return one ? CiPage : Cmdb;
    case 'maintenance':
      return one ? MaintenanceMode : Maintenance;
    case 'sla':
      return one ? SlaReport : Sla;
    case 'streams':
      return one ? Trigger : Streams;
    case 'admin':
      return Admin;
    default:
      return undefined;
  }
}

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
          <Route path="/problems" component={Problems} />
          <Route path="/problems/:id" component={ProblemPage} />
          <Route path="/cmdb" component={Cmdb} />
          <Route path="/cmdb/ci/:id" component={CiPage} />
          <Route path="/maintenance" component={Maintenance} />
          <Route path="/maintenance/new" component={MaintenanceMode} />
          <Route path="/maintenance/:id" component={MaintenanceMode} />
          <Route path="/sla" component={Sla} />
          <Route path="/sla/reports/:id" component={SlaReport} />
          <Route path="/streams" component={Streams} />
          <Route path="/streams/triggers/new" component={Trigger} />
          <Route path="/streams/triggers/:id" component={Trigger} />
          <Route path="/admin" component={Admin} />
          <Route path="/admin/:section" component={Admin} />
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
