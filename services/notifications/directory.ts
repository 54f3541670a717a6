/**
 * What the dispatcher reads of the notification model (issue #31): the enabled policies as
 * routing takes them, a receiver with its secrets, the CMDB view policy matching needs, and the
 * writes it makes: disabling a receiver that answered 410 Gone, and removing a replay it took up.
 * The replays asked through the API are read here too. Read from the control plane's
 * notifications slice on each call, so a receiver or policy changed through the admin API is
 * used from the next message on.
 */
import type { CmdbView, PolicyRule } from '../../pipelines/notifications/policy-match.js';
import type { ControlPlane } from '../control-plane/control-plane.js';
import type { NotificationsSlice } from '../control-plane/notifications/notifications.slice.js';
import type { ReceiverRecord, ReplayRecord } from '../control-plane/notifications/notifications.types.js';
import { completeReplay, disableReceiver } from '../control-plane/notifications/notifications.commands.js';
import { cmdbViewOf, toPolicyRule } from '../control-plane/notifications/policy-rule.js';
import type { PlatformModel } from '../control-plane/model.js';

export interface NotificationDirectory {
  /** The enabled policies. */
  policies(): readonly PolicyRule[];
  /** The receiver with its secrets, or undefined when it was deleted. */
  receiver(id: number): ReceiverRecord | undefined;
  readonly cmdb: CmdbView;
  /** Disables the receiver, saying why (it answered 410 Gone). */
  disable(receiverId: number, reason: string): Promise<void>;
  /** The replays asked through the API and not yet sent, oldest first (none when absent). */
  replays?(): readonly ReplayRecord[];
  /** The replay was taken up: its record goes. */
  completeReplay?(id: number): Promise<void>;
}

const sliceOf = (model: PlatformModel): NotificationsSlice => model.slices.notifications;

export function modelDirectory(controlPlane: ControlPlane<PlatformModel>, now: () => number): NotificationDirectory {
  const model = controlPlane.model;
  return {
    policies: () => [...sliceOf(model).policies.values()].filter((p) => p.enabled).map(toPolicyRule),
    receiver: (id) => sliceOf(model).receivers.get(id),
    cmdb: cmdbViewOf(model),
    async disable(receiverId, reason) {
      await controlPlane.execute(disableReceiver(receiverId, reason, now()));
    },
    replays: () => [...sliceOf(model).replays.values()].sort((a, b) => a.id - b.id),
    async completeReplay(id) {
      await controlPlane.execute(completeReplay(id));
    },
  };
}
