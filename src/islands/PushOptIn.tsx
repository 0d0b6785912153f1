/**
 * The push opt-in alert of the default layout (SPEC §2, §4 push states): offered to a member whose
 * browser can receive pushes and has not answered yet; "turn on" asks the browser, subscribes and
 * sends the subscription to the server (POST /api/user.php?push=1); "not now" is remembered in
 * this browser for PUSH_OPTIN_SNOOZE_DAYS days.
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import { $push, subscribePush } from '../stores/push.ts';
import { api } from '../stores/api.ts';

/** Days a "not now" keeps the alert away (SPEC gives none). */
export const PUSH_OPTIN_SNOOZE_DAYS = 14;
const SNOOZE_KEY = 'push_optin_snoozed_until';

/**
 * `publicKey` is the runtime's VAPID key; a member shell (built before any runtime had keys) passes
 * none and the alert asks the brand's settings for it (settings.push_public_key), only when it
 * would show. A runtime without keys offers no push.
 */
export default function PushOptIn({ locale, publicKey: given }: { locale: Locale; publicKey?: string }) {
  const state = useStore($push);
  const [snoozed, setSnoozed] = useState(true);
  const [busy, setBusy] = useState(false);
  const [publicKey, setPublicKey] = useState(given ?? null);
  useEffect(() => {
    const until = Number(localStorage.getItem(SNOOZE_KEY) ?? 0);
    setSnoozed(Date.now() < until);
  }, []);
  const offered = state === 'capable' && !snoozed;
  useEffect(() => {
    if (!offered || publicKey) return;
    api('GET', '/settings.php').then(
      ({ settings }) => setPublicKey(settings.push_public_key),
      () => undefined,
    );
  }, [offered]);
  if (!offered || !publicKey) return null;
  const o = { locale };
  const later = () => {
    localStorage.setItem(SNOOZE_KEY, String(Date.now() + PUSH_OPTIN_SNOOZE_DAYS * 86_400_000));
    setSnoozed(true);
  };
  return (
    <div role="alert" className="container mt-3" data-push-optin data-banner="push">
      <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-primary/30 bg-primary/5 px-4 py-3">
        <span aria-hidden="true" className="i-tabler-bell-ringing text-2xl text-primary" />
        <p className="min-w-48 flex-1 text-sm">
          <strong className="block">{m.push_optin_title({}, o)}</strong>
          {m.push_optin_text({}, o)}
        </p>
        <button type="button" className="btn-light px-4 py-1.5 text-sm" onClick={later} disabled={busy}>{m.push_optin_later({}, o)}</button>
        <button
          type="button"
          className="btn-primary px-4 py-1.5 text-sm"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await subscribePush(publicKey);
            } catch {
              later();
            } finally {
              setBusy(false);
            }
          }}
        >
          {m.push_optin_accept({}, o)}
        </button>
      </div>
    </div>
  );
}
