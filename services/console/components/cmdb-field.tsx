/**
 * A labelled form field with its hint and the API's message for it: the control gets its id,
 * `aria-invalid` when there is a message, and `aria-describedby` naming the hint and message.
 */
import type { ComponentChildren } from 'preact';

export interface FieldA11y {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function Field(props: { id: string; label: string; error?: string | undefined; hint?: ComponentChildren; children: (a11y: FieldA11y) => ComponentChildren }) {
  const { id, label, error, hint, children } = props;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const a11y: FieldA11y = { id, ...(error ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) };
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children(a11y)}
      {hint && (
        <span id={`${id}-hint`} class="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A form-level message that no field took (announced). */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}
