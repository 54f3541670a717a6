/**
 * A confirmation as a real modal <dialog> (focus kept inside, Escape cancels, the page behind
 * inert): a heading, what will happen, optional fields, and two buttons.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface ConfirmProps {
  open: boolean;
  title: string;
  /** The confirming button's text (default "Confirm"). */
  confirmLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ComponentChildren;
}

export function ConfirmDialog({ open, title, confirmLabel = 'Confirm', busy = false, onConfirm, onCancel, children }: ConfirmProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      class="confirm"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the screen decides (it closes the dialog by setting `open`).
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
