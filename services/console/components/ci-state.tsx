/** A CI's state as a coloured dot and words (never the colour alone). */
import type { ComponentChildren } from 'preact';
import { describeState, type StateTone } from './cmdb-model.js';

export function CiStateBadge({ state, compact = false }: { state: { value: string; valueUnderMaintenance: string } | null | undefined; compact?: boolean }) {
  const { tone, text } = describeState(state);
  return (
    <span class={`ci-state tone-${tone}${compact ? ' compact' : ''}`}>
      <span class="dot" aria-hidden="true" />
      {text}
    </span>
  );
}

export function ToneBadge({ tone, children }: { tone: StateTone; children: ComponentChildren }) {
  return (
    <span class={`ci-state tone-${tone}`}>
      <span class="dot" aria-hidden="true" />
      {children}
    </span>
  );
}
