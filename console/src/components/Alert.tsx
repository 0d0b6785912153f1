/** A refusal or a confirmation on a console page: the server's catalogue message, read out when it appears. */
export default function Alert({ tone = 'error', children }: { tone?: 'error' | 'success'; children: React.ReactNode }) {
  if (!children) return null;
  const colours = tone === 'error' ? 'border-red-200 bg-red-50 text-red-800' : 'border-emerald-200 bg-emerald-50 text-emerald-800';
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-3 py-2 text-sm ${colours}`}>
      {children}
    </p>
  );
}
