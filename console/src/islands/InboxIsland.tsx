/**
 * The fictional inbox (issue 22): conversations members hold with fictional profiles, waiting
 * longest first, live from the console's event stream; beside the list the open conversation
 * with its history, the member's card (no e-mail, no payments), the fictional profile's card with
 * its marker, the claim, and the reply box (a refusal says what was found). Keyboard: the list is
 * a list of buttons (Tab, Enter); in the reply box Ctrl+Enter sends.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { $me, loadMe } from '../stores/staff.ts';
import { $conversation, $inbox, claim, listenInbox, loadInbox, openConversation, release, reply } from '../stores/inbox.ts';
import { formatDateTime } from '../lib/format.ts';
import Alert from '../components/Alert.tsx';
import BrandName from '../components/BrandName.tsx';

/** How long ago, in minutes or hours and minutes. */
function waited(since: string | null, now: number, locale: ConsoleLocale): string {
  if (!since) return '—';
  const minutes = Math.max(0, Math.round((now - Date.parse(since)) / 60_000));
  return minutes < 60 ? m.inbox_minutes({ n: minutes }, { locale }) : m.inbox_hours({ h: Math.floor(minutes / 60), n: minutes % 60 }, { locale });
}

function FictionalMarker({ locale }: { locale: ConsoleLocale }) {
  return (
    <span className="inline-flex items-center gap-1 rounded bg-fuchsia-100 px-1.5 py-0.5 text-xs font-semibold text-fuchsia-800 ring-1 ring-inset ring-fuchsia-600/20">
      <span className="i-tabler-masks-theater" aria-hidden="true" />
      {m.inbox_fictional({}, { locale })}
    </span>
  );
}

type Card = { name: string; age: number; city: string | null; country: string; main_image: { match: string } | null };

function ProfileCard({ card, title, children }: { card: Card; title: string; children?: React.ReactNode }) {
  const image = card.main_image?.match ?? null;
  return (
    <section className="panel p-3" aria-label={title}>
      <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
      <div className="flex gap-3">
        {image ? <img src={image} alt="" className="h-16 w-16 shrink-0 rounded object-cover" /> : <span className="i-tabler-user h-16 w-16 shrink-0 text-slate-300" aria-hidden="true" />}
        <div className="min-w-0 text-sm">
          <p className="font-semibold">
            {card.name}, {card.age}
          </p>
          <p className="text-slate-600">{[card.city, card.country].filter(Boolean).join(', ')}</p>
          {children}
        </div>
      </div>
    </section>
  );
}

export default function InboxIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const inbox = useStore($inbox);
  const open = useStore($conversation);
  const [text, setText] = useState('');
  const [now, setNow] = useState(() => Date.now());
  const history = useRef<HTMLOListElement>(null);

  useEffect(() => {
    void loadMe().catch(() => undefined);
    void loadInbox('');
    listenInbox();
    const tick = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(tick);
  }, []);
  useEffect(() => {
    history.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [open.data?.conversation.messages.length]);

  const data = open.data;
  const mine = data?.claim?.by.id === me?.staff.id;
  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    if (text.trim() && (await reply({ text }))) setText('');
  };
  const keys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
  };
  const brands = me?.brands ?? [];
  const conversations = inbox.list?.conversations ?? [];

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-xl font-bold">{m.nav_inbox({}, o)}</h1>
        <div className="flex flex-wrap items-end gap-3">
          <dl className="flex gap-4 text-sm" aria-label={m.inbox_figures({}, o)}>
            {(inbox.stats?.brands ?? []).map((b) => (
              <div key={b.brand} className="panel px-3 py-1.5">
                <dt className="text-xs text-slate-500">{brands.find((x) => x.id === b.brand)?.name ?? b.brand}</dt>
                <dd>
                  <strong>{m.inbox_waiting_count({ n: b.waiting }, o)}</strong>
                  {' · '}
                  {b.first_answer_median_seconds === null ? m.inbox_no_answers({}, o) : m.inbox_median({ time: waited(new Date(now - b.first_answer_median_seconds * 1000).toISOString(), now, locale) }, o)}
                </dd>
              </div>
            ))}
          </dl>
          <div>
            <label className="label" htmlFor="inbox-brand">{m.brand({}, o)}</label>
            <select id="inbox-brand" className="field" value={inbox.brand} onChange={(e) => void loadInbox(e.target.value)}>
              <option value="">{m.any({}, o)}</option>
              {brands.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
            </select>
          </div>
        </div>
      </div>
      <Alert>{inbox.error}</Alert>

      <div className="grid gap-4 lg:grid-cols-[minmax(16rem,22rem)_minmax(0,1fr)]">
        <nav aria-label={m.inbox_waiting({}, o)} className="panel max-h-[40vh] overflow-y-auto lg:max-h-[calc(100vh-10rem)]">
          {conversations.length === 0 ? (
            <p className="p-4 text-sm text-slate-500">{inbox.list ? m.inbox_empty({}, o) : '…'}</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {conversations.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    aria-current={open.id === c.id ? 'true' : undefined}
                    className={`block w-full px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 ${open.id === c.id ? 'bg-indigo-50' : ''}`}
                    onClick={() => void openConversation(c.id)}
                  >
                    <span className="flex items-center justify-between gap-2">
                      <span className="truncate font-semibold">
                        {c.member?.name ?? '—'} → {c.fictional?.name ?? '—'}
                      </span>
                      <span className="shrink-0 text-xs font-semibold text-amber-700">{waited(c.waiting_since, now, locale)}</span>
                    </span>
                    <span className="block truncate text-slate-600">{c.last_message?.text ?? m.inbox_not_text({}, o)}</span>
                    {c.member && c.member.brand !== c.brand && <span className="block truncate text-xs text-slate-500"><BrandName id={c.member.brand} /></span>}
                    {c.claim && <span className="text-xs text-slate-500">{m.inbox_claimed_by({ who: c.claim.by.email ?? '' }, o)}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>

        <section aria-label={m.inbox_conversation({}, o)} className="min-w-0">
          <Alert>{open.error}</Alert>
          {!data ? (
            <p className="panel p-6 text-sm text-slate-500">{m.inbox_choose({}, o)}</p>
          ) : (
            <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_16rem]">
              <div className="panel flex min-h-[24rem] flex-col">
                <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-3 py-2">
                  <h2 className="flex items-center gap-2 font-semibold">
                    {m.inbox_as({ name: data.fictional?.name ?? '' }, o)} <FictionalMarker locale={locale} />
                  </h2>
                  <div className="flex items-center gap-2 text-sm">
                    {data.claim ? (
                      <span className="text-slate-600">{mine ? m.inbox_claimed_by_you({ until: formatDateTime(data.claim.until, locale) }, o) : m.inbox_claimed_by({ who: data.claim.by.email ?? '' }, o)}</span>
                    ) : null}
                    {mine ? (
                      <button type="button" className="btn-light" onClick={() => void release()}>
                        <span className="i-tabler-lock-open" aria-hidden="true" />
                        {m.inbox_release({}, o)}
                      </button>
                    ) : (
                      <button type="button" className="btn-primary" disabled={Boolean(data.claim)} onClick={() => void claim()}>
                        <span className="i-tabler-lock" aria-hidden="true" />
                        {m.inbox_claim({}, o)}
                      </button>
                    )}
                  </div>
                </header>
                <ol ref={history} className="flex max-h-[50vh] flex-1 flex-col gap-2 overflow-y-auto p-3" aria-label={m.inbox_history({}, o)}>
                  {data.conversation.messages.map((msg) => (
                    <li key={msg.id} className={`max-w-[80%] rounded-lg px-3 py-2 text-sm ${msg.from === 'fictional' ? 'self-end bg-indigo-600 text-white' : 'self-start bg-slate-100'}`}>
                      {msg.text ?? (msg.gift ? `🎁 ${msg.gift.id}` : msg.photo ? <img src={msg.photo.thumb_url} alt="" className="max-h-40 rounded" /> : m.inbox_not_text({}, o))}
                      <span className={`mt-1 block text-[11px] ${msg.from === 'fictional' ? 'text-indigo-100' : 'text-slate-500'}`}>{formatDateTime(msg.created_at, locale)}</span>
                    </li>
                  ))}
                </ol>
                <form className="flex flex-col gap-2 border-t border-slate-100 p-3" onSubmit={(e) => void send(e)}>
                  <label className="label" htmlFor="inbox-reply">{m.inbox_reply_label({ name: data.fictional?.name ?? '' }, o)}</label>
                  <textarea id="inbox-reply" className="field min-h-20" maxLength={data.reply.message_length} value={text} disabled={!mine} onChange={(e) => setText(e.target.value)} onKeyDown={keys} />
                  <Alert>{open.replyError}</Alert>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="text-xs text-slate-500">{mine ? m.inbox_reply_hint({}, o) : m.inbox_claim_first({}, o)}</span>
                    <button className="btn-primary" disabled={!mine || open.sending || !text.trim()}>
                      <span className="i-tabler-send" aria-hidden="true" />
                      {m.inbox_send({}, o)}
                    </button>
                  </div>
                </form>
              </div>
              <aside className="flex flex-col gap-3">
                {data.member && (
                  <ProfileCard card={data.member} title={m.inbox_member({}, o)}>
                    {data.member.brand !== data.conversation.brand && <p className="text-slate-600"><BrandName id={data.member.brand} /></p>}
                    {/* A member of another brand of the pool: what they pay is their brand's, the card has none of it. */}
                    {'premium' in data.member && (
                      <>
                        <p className="text-slate-600">{data.member.premium ? m.inbox_premium({}, o) : m.inbox_free({}, o)}</p>
                        <p className="text-slate-600">{m.inbox_spent({ n: data.member.credits_spent_fictional }, o)}</p>
                      </>
                    )}
                  </ProfileCard>
                )}
                {data.fictional && (
                  <ProfileCard card={data.fictional} title={m.inbox_profile({}, o)}>
                    <FictionalMarker locale={locale} />
                    {data.fictional.about && <p className="mt-1 line-clamp-4 text-slate-600">{data.fictional.about}</p>}
                  </ProfileCard>
                )}
              </aside>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
