/**
 * /credits/repeat-order (SPEC §1 repeat orders, §2 saved-card page): the last purchase again in
 * one step, charged on the saved card without a checkout when there is one, and the saved card
 * itself, which the member can remove.
 */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { api } from '../../stores/api.ts';
import { useHydrated } from '../useHydrated.ts';
import { FormAlert, formError } from '../signup/form.tsx';

interface Props {
  locale: Locale;
  /** The bundle's price today, formatted. */
  amount: string;
  card: { label: string } | null;
}

export default function RepeatOrder({ locale, amount, card: initialCard }: Props) {
  const o = { locale };
  const hydrated = useHydrated();
  const [card, setCard] = useState(initialCard);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState('');
  const [notice, setNotice] = useState('');

  async function buy() {
    setBusy(true);
    setAlert('');
    try {
      const { next } = await api('POST', '/repeat-order.php');
      location.assign(next);
    } catch (error) {
      setAlert(formError(error, locale).message);
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setAlert('');
    try {
      await api('DELETE', '/saved-card.php');
      setCard(null);
      setNotice(m.saved_card_removed({}, o));
    } catch (error) {
      setAlert(formError(error, locale).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-5">
      <section className="card p-5" aria-labelledby="saved-card" data-saved-card={card ? 'yes' : 'no'}>
        <h2 id="saved-card" className="mb-2 text-lg font-bold">{m.saved_card_title({}, o)}</h2>
        {card ? (
          <>
            <p className="mb-3 flex items-center gap-2 text-lg font-semibold">
              <span aria-hidden="true" className="i-tabler-credit-card text-2xl text-primary" />
              <span data-card-label>{card.label}</span>
            </p>
            <p className="mb-3 text-sm text-gray-700">{m.saved_card_text({}, o)}</p>
            <button type="button" className="text-sm font-semibold text-danger underline" onClick={remove} disabled={busy || !hydrated}>{m.saved_card_remove({}, o)}</button>
          </>
        ) : (
          <p className="text-sm text-gray-700">{m.saved_card_none({}, o)}</p>
        )}
        {notice && <p role="status" className="mt-2 text-sm text-success">{notice}</p>}
      </section>
      {alert && <FormAlert>{alert}</FormAlert>}
      <button type="button" className="btn-primary w-full py-3 text-lg sm:w-auto" onClick={buy} disabled={busy || !hydrated} data-repeat>
        <span aria-hidden="true" className={card ? 'i-tabler-bolt' : 'i-tabler-repeat'} />
        {card ? m.repeat_buy_card({ amount }, o) : m.repeat_buy({ amount }, o)}
      </button>
    </div>
  );
}
