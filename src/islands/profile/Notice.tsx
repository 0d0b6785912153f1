import type { ReactNode } from 'react';

interface Props {
  tone: 'error' | 'success' | 'info';
  /** Shown as a toast over the page: an opaque card with a shadow. */
  floating?: boolean;
  children?: ReactNode;
}

/**
 * A message under a form: errors are an alert (read out at once), confirmations a polite status.
 * The live region stays in the page when empty so screen readers pick up what appears in it.
 */
export function Notice({ tone, floating = false, children }: Props) {
  const style = {
    error: 'border-danger bg-danger/10 text-[#5c0d16]',
    success: 'border-success bg-success/10 text-[#0d3d22]',
    info: 'border-info bg-info/10 text-[#08414c]',
  }[tone];
  const role = tone === 'error' ? 'alert' : 'status';
  if (!children) return <div role={role} className="sr-only" />;
  const box = <div className={`rounded-xl border-l-4 px-4 py-3 text-sm ${style}`}>{children}</div>;
  return floating ? (
    <div role={role} className="rounded-xl bg-white shadow-lg">{box}</div>
  ) : (
    <div role={role}>{box}</div>
  );
}
