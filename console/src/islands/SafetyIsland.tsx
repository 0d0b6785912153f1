/**
 * The brands' safety rules, read-only (issue 22): one card per brand in scope, as the runtime
 * applies tenant.json `safety` with its defaults. They are changed in the brand's tenant.json.
 */
import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { label } from '../lib/labels.ts';
import { $safety, loadSafety } from '../stores/safety.ts';
import Alert from '../components/Alert.tsx';

export default function SafetyIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const { brands, error } = useStore($safety);
  useEffect(() => {
    void loadSafety();
  }, []);
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-bold">{m.nav_safety({}, o)}</h1>
        <p className="max-w-3xl text-sm text-slate-600">{m.safety_intro({}, o)}</p>
      </div>
      <Alert>{error}</Alert>
      {!brands && !error && <p className="text-sm text-slate-600">{m.loading({}, o)}</p>}
      <div className="grid gap-4 md:grid-cols-2">
        {brands?.map(({ id, name, safety }) => (
          <section key={id} className="panel p-4" aria-labelledby={`safety-${id}`}>
            <h2 id={`safety-${id}`} className="mb-3 text-lg font-bold">{name}</h2>
            <dl className="grid grid-cols-[minmax(0,11rem)_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm">
              <dt className="font-semibold text-slate-700">{m.safety_burst({}, o)}</dt>
              <dd>{safety.burst.new_account_hours > 0 ? m.safety_burst_text({ hours: safety.burst.new_account_hours, max: safety.burst.max_recipients }, o) : m.safety_off({}, o)}</dd>
              <dt className="font-semibold text-slate-700">{m.safety_contacts({}, o)}</dt>
              <dd>{label(`safety_contacts_${safety.contacts}`, locale)}</dd>
              <dt className="font-semibold text-slate-700">{m.safety_words({}, o)}</dt>
              <dd>
                {safety.words.length ? (
                  <ul className="flex flex-wrap gap-1.5">
                    {safety.words.map((word) => <li key={word} className="rounded bg-slate-100 px-1.5 py-0.5">{word}</li>)}
                  </ul>
                ) : (
                  m.safety_words_none({}, o)
                )}
              </dd>
              <dt className="font-semibold text-slate-700">{m.safety_disposable({}, o)}</dt>
              <dd>{safety.disposable_email ? m.safety_disposable_on({}, o) : m.safety_off({}, o)}</dd>
            </dl>
            <p className="mt-3 text-xs text-slate-500">{m.safety_where({ file: `tenants/${id}/tenant.json` }, o)}</p>
          </section>
        ))}
      </div>
    </div>
  );
}
