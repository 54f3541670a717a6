/** Streams in memory, indexed by key so the ingress checks a key without I/O. */
import type { StreamModel } from '../../../schemas/stream.schema.js';
import type { Slice } from '../model.js';

export type StreamRecord = StreamModel;

export class StreamsSlice implements Slice {
  readonly kinds = ['stream'];
  readonly streams = new Map<number, StreamRecord>();
  private readonly byKey = new Map<string, StreamRecord>();

  apply(key: string, kind: string, value: unknown): void {
    const id = Number(key.slice(kind.length + 1));
    const before = this.streams.get(id);
    if (before) this.byKey.delete(before.key);
    if (value === null) this.streams.delete(id);
    else {
      this.streams.set(id, value as StreamRecord);
      this.byKey.set((value as StreamRecord).key, value as StreamRecord);
    }
  }

  byStreamKey(key: string): StreamRecord | undefined {
    return this.byKey.get(key);
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    streams: StreamsSlice;
  }
}
