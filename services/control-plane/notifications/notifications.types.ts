/**
 * Records of the notifications slice (issue #31), as stored in the journal. Unlike what the API
 * shows (receiver.view.ts), a stored receiver holds its secrets: the dispatcher signs and
 * authenticates with them. They leave the control plane only towards the receiver itself.
 */
import type { PolicyModel, ReplayRequestModel } from '../../../schemas/notifications.schema.js';

interface ReceiverCommon {
  id: number;
  name: string;
  ownerWorkGroup: { id: number };
  enabled: boolean;
  /** Why the platform disabled it ('gone (410)'); null when enabled or disabled by hand. */
  disabledReason: string | null;
  rateLimitPerSecond: number;
  maxAgeHours: number;
  createdAt: string;
  updatedAt: string;
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
}

/** Record `notification-receiver:<id>`, discriminated by `type`. */
export type ReceiverRecord =
  | (ReceiverCommon & { type: 'webhook'; url: string; secrets: string[] })
  | (ReceiverCommon & { type: 'slack'; url: string })
  | (ReceiverCommon & { type: 'teams'; url: string })
  | (ReceiverCommon & { type: 'pagerduty'; url: string; routingKey: string })
  | (ReceiverCommon & { type: 'alertmanager'; url: string; resendSeconds: number })
  | (ReceiverCommon & { type: 'email'; smtp: SmtpSettings; from: string; to: string[] });

/** A receiver's fields that depend on its type. */
export type ReceiverSettings = ReceiverRecord extends infer R ? (R extends ReceiverRecord ? Omit<R, keyof ReceiverCommon> : never) : never;

/** Record `notification-policy:<id>`: as the API shows it (a policy holds no secret). */
export type PolicyRecord = PolicyModel;

/** Record `notification-replay:<id>`: a replay the dispatcher has yet to send. */
export type ReplayRecord = ReplayRequestModel;

/** Who acts, for the rights checks: the user (its workgroups are read from the model) and whether it is a platform admin. */
export interface NotificationsActor {
  userId: number;
  admin: boolean;
}
