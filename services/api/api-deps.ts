import type { ControlPlane } from '../control-plane/control-plane.js';
import type { PlatformModel } from '../control-plane/slices.js';
import type { Authenticator } from './auth.js';

/** What route builders of the API need. */
export interface ApiDeps {
  controlPlane: ControlPlane<PlatformModel>;
  auth: Authenticator;
  /** Milliseconds since the epoch; injected so tests control time. */
  now: () => number;
}

export const isoNow = (deps: ApiDeps): string => new Date(deps.now()).toISOString();
export const ADMIN = 'base-system.admin';
export const ADMIN_PREFIX = '/api/admin/v1';
