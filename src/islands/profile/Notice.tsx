import type { ReactNode } from 'react';

/**
 * A message under a form: errors are an alert (read out at once), confirmations a polite status.
 * The live region stays in the page when empty so screen readers pick up what appears in it.
 */
export function Notice({ tone, children }: { tone: 'error' | 'success' | 'info'; children?: ReactNode }) {
  const style = {
    error: 'border-danger bg-danger/10 text-[#5c0d16]',
    success: 'border-success bg-success/10 text-[#0d3d22]',
    info: 'border-info bg-info/10 text-[#08414c]',
  }[tone];
  const role = tone === 'error' ? 'alert' : 'status';
  if (!children) return <div role={role} className="sr-only" />;
  return (
    <div role={role} className={`rounded-xl border-l-4 px-4 py-3 text-sm ${style}`}>
      {children}
    </div>
  );
}
