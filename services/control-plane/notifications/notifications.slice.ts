/** Notification receivers, policies and pending replays in memory (issue #31), with the index of which policies use a receiver. */
import type { Slice } from '../model.js';
import type { PolicyRecord, ReceiverRecord, ReplayRecord } from './notifications.types.js';

export class NotificationsSlice implements Slice {
  readonly kinds = ['notification-receiver', 'notification-policy', 'notification-replay'];
  readonly receivers = new Map<number, ReceiverRecord>();
  readonly policies = new Map<number, PolicyRecord>();
  readonly replays = new Map<number, ReplayRecord>();
  /** Receiver id → ids of the policies that send to it. */
  private readonly usedBy = new Map<number, Set<number>>();

  apply(key: string, kind: string, value: unknown): void {
    const id = Number(key.slice(kind.length + 1));
    switch (kind) {
      case 'notification-receiver':
        if (value === null) this.receivers.delete(id);
        else this.receivers.set(id, value as ReceiverRecord);
        break;
      case 'notification-policy': {
        for (const receiverId of this.policies.get(id)?.receiverIds ?? []) this.usedBy.get(receiverId)?.delete(id);
        if (value === null) {
          this.policies.delete(id);
          break;
        }
        const policy = value as PolicyRecord;
        this.policies.set(id, policy);
        for (const receiverId of policy.receiverIds) {
          let users = this.usedBy.get(receiverId);
          if (!users) this.usedBy.set(receiverId, (users = new Set()));
          users.add(id);
        }
        break;
      }
      case 'notification-replay':
        if (value === null) this.replays.delete(id);
        else this.replays.set(id, value as ReplayRecord);
        break;
    }
  }

  /** Ids of the policies that send to the receiver, ascending. */
  policiesUsing(receiverId: number): number[] {
    return [...(this.usedBy.get(receiverId) ?? [])].sort((a, b) => a - b);
  }

  receiverNamed(workGroupId: number, name: string): ReceiverRecord | undefined {
    for (const receiver of this.receivers.values()) if (receiver.ownerWorkGroup.id === workGroupId && receiver.name === name) return receiver;
    return undefined;
  }

  policyNamed(workGroupId: number, name: string): PolicyRecord | undefined {
    for (const policy of this.policies.values()) if (policy.ownerWorkGroup.id === workGroupId && policy.name === name) return policy;
    return undefined;
  }

  /** The replays waiting for the receiver, oldest first. */
  replaysOf(receiverId: number): ReplayRecord[] {
    return [...this.replays.values()].filter((r) => r.receiverId === receiverId).sort((a, b) => a.id - b.id);
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    notifications: NotificationsSlice;
  }
}
