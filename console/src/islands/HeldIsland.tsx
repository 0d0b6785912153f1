/**
 * The moderators' queue of held messages (issue 22, "Safety rules"): what the brands' rules held
 * back, oldest first, with why, the sender's card and recent sends (never an e-mail address) and
 * the recipient's card. Release delivers a message at once; reject gives its credits back and tells
 * the sender why. Keyboard: j/k (or the arrows) move between messages, r releases, x rejects.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { HeldAction } from '../../../src/lib/safety-rules.ts';
import type { ProfileCardData } from '../../../src/contract/cards.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $held, decideHeld, loadHeld, type HeldItem } from '../stores/held.ts';
import { filtersFromAddress } from '../lib/filters.ts';
import { label } from '../lib/labels.ts';
import { formatDate, formatDateTime } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import StatusBadge from '../components/StatusBadge.tsx';
import ActionDialog from '../components/ActionDialog.tsx';

type Deciding = { item: HeldItem; action: HeldAction } | null;

function Card({ card, locale }: { card: ProfileCardData; locale: ConsoleLocale }) {
  const place = [card.city, card.region, card.country].filter(Boolean).join(', ');
  return (
    <span>
      <span className="font-semibold text-slate-900">{card.name}</span>
      <span className="text-slate-600"> · {card.age}{place ? ` · ${place}` : ''}</span>
      <span className="text-xs text-slate-500"> #{card.id}</span>
      {card.fictional && (
        // DESIGN §10: a fictional profile is disclosed wherever it appears.
        <span className="ml-1 rounded bg-violet-100 px-1.5 py-0.5 text-xs font-semibold text-violet-800">{m.fictional({}, { locale })}</span>
      )}
    </span>
  );
}

function Why({ item, locale }: { item: HeldItem; locale: ConsoleLocale }) {
  const o = { locale };
  const why = item.why;
  const chips = why.reasons.map((reason) =>
    reason === 'burst'
      ? m.held_why_burst({ recipients: why.recipients ?? 0, max: why.max_recipients ?? 0 }, o)
      : reason === 'contacts'
        ? m.held_why_contacts({ kinds: (why.contacts ?? []).map((kind) => label(`contact_${kind}`, locale)).join(', ') }, o)
        : m.held_why_words({ word: why.word ?? '' }, o),
  );
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label={m.held_why({}, o)}>
      {chips.map((chip) => (
        <li key={chip} className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-inset ring-amber-600/20">{chip}</li>
      ))}
    </ul>
  );
}

export default function HeldIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const { brand, messages, next, loading, error, done } = useStore($held);
  const [deciding, setDeciding] = useState<Deciding>(null);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    void loadMe().catch(() => undefined);
    void loadHeld(filtersFromAddress(['brand'] as const).brand ?? '');
  }, []);
  const brands = me?.brands ?? [];
  const brandName = (id: string) => brands.find((b) => b.id === id)?.name ?? id;
  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[data-held]') ?? [])];

  /** After a decision the next message (or the previous, at the end) takes the focus. */
  function focusAfter(id: number) {
    const all = items();
    const at = all.findIndex((el) => el.dataset.held === String(id));
    requestAnimationFrame(() => (items()[Math.min(at, items().length - 1)] ?? list.current)?.focus());
  }

  function onKey(event: KeyboardEvent<HTMLLIElement>, item: HeldItem) {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    const all = items();
    const at = all.indexOf(event.currentTarget);
    const move = (to: number) => all[Math.max(0, Math.min(all.length - 1, to))]?.focus();
    if (event.key === 'j' || event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'k' || event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'r') setDeciding({ item, action: 'release' });
    else if (event.key === 'x') setDeciding({ item, action: 'reject' });
    else return;
    event.preventDefault();
  }

  const text = (item: HeldItem) => item.text ?? label(`held_kind_${item.kind}`, locale);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-bold">{m.nav_held({}, o)}</h1>
          <p className="max-w-3xl text-sm text-slate-600">{m.held_intro({}, o)}</p>
          <p className="text-xs text-slate-500" id="held-keys">{m.held_keys({}, o)}</p>
        </div>
        <div>
          <label className="label" htmlFor="held-brand">{m.brand({}, o)}</label>
          <select id="held-brand" className="field" value={brand} onChange={(e) => void loadHeld(e.target.value)}>
            <option value="">{m.any({}, o)}</option>
            {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
          </select>
        </div>
      </div>
      <Alert>{error}</Alert>
      <Alert tone="success">{done}</Alert>
      <ol ref={list} tabIndex={-1} className="flex flex-col gap-3 outline-none" aria-label={m.nav_held({}, o)} aria-describedby="held-keys" aria-busy={loading}>
        {messages.map((item) => (
          <li key={item.id} tabIndex={0} data-held={item.id} className="panel flex flex-col gap-2 p-3 focus:ring-2 focus:ring-indigo-500" aria-label={m.held_item({ name: item.sender.card.name, date: formatDateTime(item.created_at, locale) }, o)} onKeyDown={(e) => onKey(e, item)}>
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <time dateTime={item.created_at} className="text-slate-600">{formatDateTime(item.created_at, locale)}</time>
              <span className="text-slate-600">{brandName(item.brand)}</span>
              <span className="text-slate-600">{m.held_credits({ credits: item.credits }, o)}</span>
              <Why item={item} locale={locale} />
            </div>
            <div className="grid gap-1 text-sm md:grid-cols-2">
              <div>
                <span className="mr-1 text-xs font-semibold uppercase text-slate-500">{m.held_from({}, o)}</span>
                <a href={`/console/members/${item.sender.user_id}`} className="no-underline"><Card card={item.sender.card} locale={locale} /></a>
                {item.sender.suspended && <span className="ml-1"><StatusBadge status="suspended" locale={locale} /></span>}
                <div className="text-xs text-slate-500">
                  {m.held_signed_up({ date: formatDate(item.sender.signup_date, locale) }, o)} · {m.held_recent({ sends: item.sender.recent_sends, conversations: item.sender.recent_recipients }, o)}
                </div>
              </div>
              <div>
                <span className="mr-1 text-xs font-semibold uppercase text-slate-500">{m.held_to({}, o)}</span>
                <Card card={item.recipient} locale={locale} />
              </div>
            </div>
            <blockquote className="whitespace-pre-wrap break-words rounded-md bg-slate-50 px-3 py-2 text-slate-900" data-held-text>{text(item)}</blockquote>
            <div className="flex gap-2">
              <button type="button" className="btn-primary" onClick={() => setDeciding({ item, action: 'release' })} aria-keyshortcuts="r">
                <span className="i-tabler-send" aria-hidden="true" />
                {m.held_release({}, o)}
              </button>
              <button type="button" className="btn-light" onClick={() => setDeciding({ item, action: 'reject' })} aria-keyshortcuts="x">
                <span className="i-tabler-ban" aria-hidden="true" />
                {m.held_reject({}, o)}
              </button>
            </div>
          </li>
        ))}
      </ol>
      {!loading && messages.length === 0 && !error && <p className="panel p-4 text-sm text-slate-600">{m.held_none({}, o)}</p>}
      {loading && <p className="text-sm text-slate-600">{m.loading({}, o)}</p>}
      {next !== null && !loading && (
        <button type="button" className="btn-light self-start" onClick={() => void loadHeld(brand, true)}>{m.held_more({}, o)}</button>
      )}
      {deciding && (
        <ActionDialog
          locale={locale}
          danger={deciding.action === 'reject'}
          title={deciding.action === 'release' ? m.held_release_title({ name: deciding.item.recipient.name }, o) : m.held_reject_title({}, o)}
          submit={deciding.action === 'release' ? m.held_release({}, o) : m.held_reject({}, o)}
          onConfirm={async (reason) => {
            const { item, action } = deciding;
            await decideHeld(item.id, action, reason, action === 'release' ? m.held_released({}, o) : m.held_rejected({ credits: item.credits }, o));
            focusAfter(item.id);
          }}
          onClose={() => setDeciding(null)}
        >
          <p className="text-sm text-slate-700">
            {deciding.action === 'release' ? m.held_release_text({}, o) : m.held_reject_text({ name: deciding.item.sender.card.name, credits: deciding.item.credits }, o)}
          </p>
          <blockquote className="max-h-32 overflow-y-auto whitespace-pre-wrap break-words rounded-md bg-slate-50 px-3 py-2 text-sm">{text(deciding.item)}</blockquote>
        </ActionDialog>
      )}
    </div>
  );
}
