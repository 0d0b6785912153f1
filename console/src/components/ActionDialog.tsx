/**
 * A staff action's dialog: the reason every action on a member carries (it goes to the audit log
 * and, where the law asks, to the member), any fields of its own, and the server's message when
 * it is refused. `danger` marks what cannot be undone.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import Alert from './Alert.tsx';

interface Props {
  locale: ConsoleLocale;
  title: string;
  submit: string;
  danger?: boolean;
  /** No reason asked (resending an activation mail). */
  noReason?: boolean;
  children?: ReactNode;
  /** Runs the action with the reason typed; a ConsoleApiError keeps the dialog open with its message. */
  onConfirm: (reason: string) => Promise<void>;
  onClose: () => void;
}

export default function ActionDialog({ locale, title, submit, danger, noReason, children, onConfirm, onClose }: Props) {
  const o = { locale };
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!noReason && !reason.trim()) return setError(m.reason_required({}, o));
    setBusy(true);
    setError('');
    try {
      await onConfirm(reason.trim());
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={dialog} aria-labelledby="action-title" onClose={onClose} onCancel={onClose}>
      <form className="flex flex-col gap-4 p-5" onSubmit={confirm} noValidate>
        <h2 id="action-title" className="text-lg font-bold">{title}</h2>
        {children}
        {!noReason && (
          <div>
            <label className="label" htmlFor="action-reason">{m.reason({}, o)}</label>
            <textarea id="action-reason" className="field min-h-24" maxLength={1000} required value={reason} onChange={(e) => setReason(e.target.value)} aria-describedby="action-reason-hint" />
            <p id="action-reason-hint" className="mt-1 text-xs text-slate-500">{m.reason_hint({}, o)}</p>
          </div>
        )}
        <Alert>{error}</Alert>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-light" onClick={onClose}>{m.cancel({}, o)}</button>
          <button className={danger ? 'btn-danger' : 'btn-primary'} disabled={busy}>{submit}</button>
        </div>
      </form>
    </dialog>
  );
}
