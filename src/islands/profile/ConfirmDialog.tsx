import { useEffect, useId, useRef, type RefObject } from 'react';

/** A native <dialog> shown as a modal while `open` is true (focus trapped, Escape cancels). */
export function useModal(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: string;
  confirm: string;
  cancel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question on the native <dialog>: focus is trapped, Escape and the backdrop cancel. */
export function ConfirmDialog({ open, title, text, confirm, cancel, busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useModal(open);
  const id = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onCancel();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget && !busy) onCancel();
      }}
    >
      <div className="p-6">
        <h2 id={`${id}-title`} className="mb-2 text-xl font-bold">{title}</h2>
        <p id={`${id}-text`} className="mb-6 text-gray-700">{text}</p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className="btn-light" onClick={onCancel} disabled={busy} autoFocus>{cancel}</button>
          <button type="button" className="btn bg-danger text-white hover:brightness-110" onClick={onConfirm} disabled={busy}>{confirm}</button>
        </div>
      </div>
    </dialog>
  );
}
