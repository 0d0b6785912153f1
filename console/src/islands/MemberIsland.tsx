/**
 * One member's page (issue 22): profile, photos, credit ledger, payments (roles with
 * `members.payments` only: the API answers null to the others), complaints by and about them,
 * blocks, sessions and their conversations' metadata (never a message's text). The actions the
 * role may take, each with a reason in a dialog and each in the audit log (the API writes it).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { CONSOLE_MAX_CREDITS, SUPPORT_MAX_CREDITS, may } from '../../../src/contract/console.ts';
import type { ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { label } from '../lib/labels.ts';
import { formatDate, formatDateTime, sourceText } from '../lib/format.ts';
import { $brandNames, $me, brandName as nameOf, loadMe } from '../stores/staff.ts';
import { $member, actOnMember, clearDone, deleteMember, loadMember, memberIdOfAddress } from '../stores/member.ts';
import Alert from '../components/Alert.tsx';
import StatusBadge from '../components/StatusBadge.tsx';
import ActionDialog from '../components/ActionDialog.tsx';
import BrandName from '../components/BrandName.tsx';

type Action = 'suspend' | 'unsuspend' | 'grant' | 'take' | 'activation' | 'directdebit' | 'delete';

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <section className="panel min-w-0" aria-label={title}>
      <h2 className="flex items-center gap-2 border-b border-slate-200 px-3 py-2 text-sm font-bold">
        {title}
        {count !== undefined && <span className="rounded bg-slate-100 px-1.5 text-xs font-semibold text-slate-600">{count}</span>}
      </h2>
      <div className="overflow-x-auto">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 px-3 py-2 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-500">{term}</dt>
          <dd className="min-w-0 break-words">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

const Empty = ({ text }: { text: string }) => <p className="px-3 py-2 text-sm text-slate-500">{text}</p>;

export default function MemberIsland({ locale }: { locale: ConsoleLocale }) {
  const o = { locale };
  const me = useStore($me);
  const brands = useStore($brandNames);
  const { data, error, done } = useStore($member);
  const [action, setAction] = useState<Action | null>(null);
  const [credits, setCredits] = useState('');
  const [sure, setSure] = useState(false);
  const [id, setId] = useState(0);
  useEffect(() => {
    const memberId = memberIdOfAddress();
    setId(memberId);
    void loadMe().catch(() => undefined);
    void loadMember(memberId);
  }, []);

  if (error && !data) return <Alert>{error}</Alert>;
  if (!data || !me) return <p className="text-sm text-slate-600">{m.loading({}, o)}</p>;
  const { member, profile } = data;
  // A member of another brand of the pool (issue 24): their account stays their brand's.
  const full = data.view === 'full' ? data : null;
  const role = me.staff.role;
  const brandName = nameOf(brands, member.brand);
  // The other side of a block or conversation of another brand (of the pool) says which.
  const otherBrand = (brand: string | null) => brand && brand !== member.brand && <span className="text-xs text-slate-600"> · <BrandName id={brand} /></span>;
  const maxCredits = role === 'support' ? SUPPORT_MAX_CREDITS : CONSOLE_MAX_CREDITS;
  const close = () => {
    setAction(null);
    setCredits('');
    setSure(false);
  };
  const button = (what: Action, text: string, icon: string, style = 'btn-light') => (
    <button type="button" className={style} onClick={() => { clearDone(); setAction(what); }}>
      <span className={icon} aria-hidden="true" />
      {text}
    </button>
  );
  const moveCredits = (sign: 1 | -1) => async (reason: string) => {
    const n = Number(credits);
    if (!Number.isInteger(n) || n < 1) throw new Error(m.credits_whole({}, o));
    await actOnMember('POST members/:id/credits', id, { credits: sign * n, reason }, sign > 0 ? m.done_grant({ credits: n }, o) : m.done_take({ credits: n }, o));
  };
  const creditsField = (
    <div>
      <label className="label" htmlFor="action-credits">{m.col_credits({}, o)}</label>
      <input id="action-credits" className="field" type="number" min={1} max={maxCredits} step={1} required value={credits} onChange={(e) => setCredits(e.target.value)} aria-describedby="action-credits-hint" />
      <p id="action-credits-hint" className="mt-1 text-xs text-slate-500">{m.credits_limit({ max: maxCredits, balance: full?.member.credits ?? 0 }, o)}</p>
    </div>
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p className="text-xs"><a href="/console/members" className="text-indigo-700">← {m.nav_members({}, o)}</a></p>
          <h1 className="flex flex-wrap items-center gap-2 text-xl font-bold">
            {profile?.name ?? full?.member.email}
            {profile && <span className="text-sm font-normal text-slate-600">#{profile.id}</span>}
            <StatusBadge status={member.status} locale={locale} />
          </h1>
          <p className="text-sm text-slate-600">{full && `${full.member.email} · `}<BrandName id={member.brand} /> · {m.member_id({ id: member.id }, o)}</p>
        </div>
        {full && (
        <div className="ml-auto flex flex-wrap gap-2" role="group" aria-label={m.actions({}, o)}>
          {may(role, 'members.suspend') && (member.status === 'suspended' ? button('unsuspend', m.action_unsuspend({}, o), 'i-tabler-lock-open') : button('suspend', m.action_suspend({}, o), 'i-tabler-ban', 'btn-danger'))}
          {may(role, 'members.credits') && button('grant', m.action_grant({}, o), 'i-tabler-coin')}
          {may(role, 'members.credits') && full.member.credits > 0 && button('take', m.action_take({}, o), 'i-tabler-coin-off')}
          {may(role, 'members.activation') && member.status === 'not_confirmed' && button('activation', m.action_activation({}, o), 'i-tabler-mail-forward')}
          {may(role, 'members.directdebit') && !full.member.directdebit_blocked && button('directdebit', m.action_directdebit({}, o), 'i-tabler-building-bank')}
          {may(role, 'members.delete') && button('delete', m.action_delete({}, o), 'i-tabler-trash', 'btn-danger')}
        </div>
        )}
      </div>
      {data.view === 'pool' && <p className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">{m.pool_member_note({ brand: brandName, via: data.via.map((v) => label(`pool_via_${v}`, locale)).join(', ') }, o)}</p>}
      <Alert tone="success">{done}</Alert>
      <Alert>{error}</Alert>

      <div className="grid gap-4 lg:grid-cols-2">
        {full && (
        <Section title={m.section_account({}, o)}>
          <Facts
            rows={[
              [m.status({}, o), <StatusBadge status={member.status} locale={locale} />],
              [m.suspended_at({}, o), full.member.suspended_at ? formatDateTime(full.member.suspended_at, locale) : null],
              [m.col_credits({}, o), full.member.credits],
              [m.paid_user({}, o), full.member.paid_user ? m.yes({}, o) : m.no({}, o)],
              [m.directdebit({}, o), full.member.directdebit_blocked ? m.blocked({}, o) : m.allowed({}, o)],
              [m.language({}, o), full.member.language],
              [m.col_signup({}, o), formatDateTime(full.member.signup_date, locale)],
              [m.source({}, o), sourceText(full.member.source)],
              [m.locked_until({}, o), full.member.locked_until ? formatDateTime(full.member.locked_until, locale) : null],
            ]}
          />
        </Section>
        )}
        <Section title={m.section_profile({}, o)}>
          {profile ? (
            <Facts
              rows={[
                [m.col_name({}, o), profile.name],
                [m.profile_gender({}, o), `${profile.gender} · ${profile.sexuality}`],
                [m.profile_birth({}, o), profile.birth_date],
                [m.profile_place({}, o), [profile.city, profile.region, profile.country].filter(Boolean).join(', ')],
                [m.profile_listed({}, o), profile.listed ? m.yes({}, o) : m.no({}, o)],
                ...(full ? ([[m.invisible({}, o), full.member.invisible ? m.yes({}, o) : m.no({}, o)]] as [string, ReactNode][]) : []),
                [m.last_seen({}, o), formatDateTime(profile.last_seen_at, locale)],
                [m.profile_about({}, o), profile.about ? <span className="whitespace-pre-line">{profile.about}</span> : null],
              ]}
            />
          ) : (
            <Empty text={m.no_profile({}, o)} />
          )}
        </Section>
      </div>

      <Section title={m.section_photos({}, o)} count={data.photos.length}>
        {data.photos.length ? (
          <ul className="flex flex-wrap gap-3 p-3">
            {data.photos.map((photo) => (
              <li key={photo.id} className="flex w-28 flex-col gap-1 text-xs">
                <img src={`/api/console/media/${photo.thumb_filename ?? photo.filename}`} alt={m.photo_n({ id: photo.id }, o)} className="aspect-square w-28 rounded bg-slate-200 object-cover" loading="lazy" />
                <span className="flex flex-wrap items-center gap-1">
                  <StatusBadge status={photo.status} locale={locale} />
                  {photo.is_main === 1 && <span className="text-slate-500">{m.photo_main({}, o)}</span>}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <Empty text={m.none({}, o)} />
        )}
      </Section>

      {full && (
      <div className="grid gap-4 xl:grid-cols-2">
        <Section title={m.section_ledger({}, o)} count={full.ledger.length}>
          {full.ledger.length ? (
            <table className="data-table">
              <thead><tr><th>{m.col_when({}, o)}</th><th className="num">{m.col_delta({}, o)}</th><th>{m.col_reason({}, o)}</th><th>{m.col_note({}, o)}</th></tr></thead>
              <tbody>
                {full.ledger.map((entry) => (
                  <tr key={entry.id}>
                    <td className="whitespace-nowrap">{formatDateTime(entry.created_at, locale)}</td>
                    <td className={`num font-semibold ${entry.delta < 0 ? 'text-red-700' : 'text-emerald-700'}`}>{entry.delta > 0 ? `+${entry.delta}` : entry.delta}</td>
                    <td>{entry.reason}</td>
                    <td className="max-w-64 truncate text-slate-600" title={entry.note ?? undefined}>{entry.note ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty text={m.none({}, o)} />
          )}
        </Section>
        {full.payments !== null && (
          <Section title={m.section_payments({}, o)} count={full.payments.length}>
            {full.payments.length ? (
              <table className="data-table">
                <thead><tr><th>{m.col_when({}, o)}</th><th className="num">{m.col_amount({}, o)}</th><th className="num">{m.col_credits({}, o)}</th><th>{m.col_method({}, o)}</th><th>{m.status({}, o)}</th></tr></thead>
                <tbody>
                  {full.payments.map((p) => (
                    <tr key={p.id}>
                      <td className="whitespace-nowrap">{formatDateTime(p.paid_at ?? p.created_at, locale)}</td>
                      <td className="num whitespace-nowrap">{p.amount} {p.currency}{p.reversed_amount ? ` (−${p.reversed_amount})` : ''}</td>
                      <td className="num">{p.credits}</td>
                      <td>{p.method ?? p.provider}</td>
                      <td><StatusBadge status={p.status} locale={locale} /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <Empty text={m.none({}, o)} />
            )}
          </Section>
        )}
      </div>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={m.section_complaints_by({}, o)} count={data.complaints.by.length}>
          {data.complaints.by.length ? (
            <table className="data-table">
              <thead><tr><th>{m.col_when({}, o)}</th><th>{m.col_about({}, o)}</th><th>{m.col_reason({}, o)}</th><th>{m.status({}, o)}</th></tr></thead>
              <tbody>
                {data.complaints.by.map((c) => (
                  <tr key={c.id}><td className="whitespace-nowrap">{formatDate(c.created_at, locale)}</td><td>#{c.reported_profile_id}</td><td>{c.reason}</td><td><StatusBadge status={c.status} locale={locale} /></td></tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty text={m.none({}, o)} />
          )}
        </Section>
        <Section title={m.section_complaints_about({}, o)} count={data.complaints.about.length}>
          {data.complaints.about.length ? (
            <table className="data-table">
              <thead><tr><th>{m.col_when({}, o)}</th><th>{m.col_reporter({}, o)}</th><th>{m.col_reason({}, o)}</th><th>{m.status({}, o)}</th></tr></thead>
              <tbody>
                {data.complaints.about.map((c) => (
                  <tr key={c.id}><td className="whitespace-nowrap">{formatDate(c.created_at, locale)}</td><td><a href={`/console/members/${c.reporter_user_id}`} className="text-indigo-700">{m.member_id({ id: c.reporter_user_id }, o)}</a></td><td>{c.reason}</td><td><StatusBadge status={c.status} locale={locale} /></td></tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty text={m.none({}, o)} />
          )}
        </Section>
        <Section title={m.section_blocks({}, o)} count={data.blocks.by.length + data.blocks.of.length}>
          {data.blocks.by.length + data.blocks.of.length ? (
            <table className="data-table">
              <thead><tr><th>{m.col_when({}, o)}</th><th>{m.col_who({}, o)}</th><th>{m.col_direction({}, o)}</th></tr></thead>
              <tbody>
                {[...data.blocks.by.map((b) => ({ ...b, by: true })), ...data.blocks.of.map((b) => ({ ...b, by: false }))].map((b) => (
                  <tr key={`${b.by}-${b.profile_id}`}>
                    <td className="whitespace-nowrap">{formatDate(b.created_at, locale)}</td>
                    <td>{b.name ?? '—'} <span className="text-xs text-slate-500">#{b.profile_id}</span>{otherBrand(b.brand)}{b.fictional && <FictionalMark locale={locale} />}</td>
                    <td>{b.by ? m.blocked_by_member({}, o) : m.blocked_the_member({}, o)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty text={m.none({}, o)} />
          )}
        </Section>
        {full && (
          <Section title={m.section_sessions({}, o)} count={full.sessions.count}>
            <Facts rows={[[m.sessions_open({}, o), full.sessions.count], [m.last_seen({}, o), formatDateTime(full.sessions.last_seen, locale)], [m.address({}, o), full.sessions.address]]} />
          </Section>
        )}
      </div>

      <Section title={m.section_conversations({}, o)} count={data.conversations.length}>
        <p className="px-3 pt-2 text-xs text-slate-500">{m.conversations_note({}, o)}</p>
        {data.conversations.length ? (
          <table className="data-table">
            <thead><tr><th>{m.col_with({}, o)}</th><th>{m.col_started({}, o)}</th><th className="num">{m.col_messages({}, o)}</th><th>{m.col_last({}, o)}</th></tr></thead>
            <tbody>
              {data.conversations.map((c) => (
                <tr key={c.id}>
                  <td>{c.other_name ?? '—'} <span className="text-xs text-slate-500">#{c.other_profile_id}</span>{otherBrand(c.other_brand)}{c.other_fictional && <FictionalMark locale={locale} />}</td>
                  <td className="whitespace-nowrap">{formatDate(c.created_at, locale)} · {c.started_by_member ? m.started_by_member({}, o) : m.started_by_other({}, o)}</td>
                  <td className="num">{c.messages}</td>
                  <td className="whitespace-nowrap">{formatDateTime(c.last_message_at, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty text={m.none({}, o)} />
        )}
      </Section>

      {action === 'suspend' && (
        <ActionDialog locale={locale} title={m.action_suspend({}, o)} submit={m.action_suspend({}, o)} danger onClose={close} onConfirm={(reason) => actOnMember('POST members/:id/suspend', id, { reason }, m.done_suspend({}, o))}>
          <p className="text-sm text-slate-600">{m.suspend_explained({}, o)}</p>
        </ActionDialog>
      )}
      {action === 'unsuspend' && (
        <ActionDialog locale={locale} title={m.action_unsuspend({}, o)} submit={m.action_unsuspend({}, o)} onClose={close} onConfirm={(reason) => actOnMember('POST members/:id/unsuspend', id, { reason }, m.done_unsuspend({}, o))} />
      )}
      {action === 'grant' && (
        <ActionDialog locale={locale} title={m.action_grant({}, o)} submit={m.action_grant({}, o)} onClose={close} onConfirm={moveCredits(1)}>{creditsField}</ActionDialog>
      )}
      {action === 'take' && (
        <ActionDialog locale={locale} title={m.action_take({}, o)} submit={m.action_take({}, o)} onClose={close} onConfirm={moveCredits(-1)}>{creditsField}</ActionDialog>
      )}
      {action === 'activation' && (
        <ActionDialog locale={locale} title={m.action_activation({}, o)} submit={m.action_activation({}, o)} noReason onClose={close} onConfirm={() => actOnMember('POST members/:id/resend-activation', id, undefined, m.done_activation({}, o))}>
          <p className="text-sm text-slate-600">{m.activation_explained({ email: full?.member.email ?? '' }, o)}</p>
        </ActionDialog>
      )}
      {action === 'directdebit' && (
        <ActionDialog locale={locale} title={m.action_directdebit({}, o)} submit={m.action_directdebit({}, o)} danger onClose={close} onConfirm={(reason) => actOnMember('POST members/:id/directdebit-block', id, { reason }, m.done_directdebit({}, o))} />
      )}
      {action === 'delete' && (
        <ActionDialog
          locale={locale}
          title={m.action_delete({}, o)}
          submit={m.action_delete({}, o)}
          danger
          onClose={close}
          onConfirm={async (reason) => {
            if (!sure) throw new Error(m.delete_confirm_needed({}, o));
            await deleteMember(id, reason);
          }}
        >
          <p className="text-sm text-red-800">{m.delete_explained({}, o)}</p>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={sure} onChange={(e) => setSure(e.target.checked)} />
            {m.delete_confirm({}, o)}
          </label>
        </ActionDialog>
      )}
    </div>
  );
}

/** A fictional profile is marked wherever it appears (DESIGN §10). */
function FictionalMark({ locale }: { locale: ConsoleLocale }) {
  return <span className="ml-1 rounded bg-purple-100 px-1 text-xs font-semibold text-purple-800">{m.fictional({}, { locale })}</span>;
}
