/** The members the member blocked (settings): each can be unblocked here, since no listing shows them. */
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import type { ProfileCardData } from '../../contract/likes.ts';
import { api, ApiError } from '../../stores/api.ts';
import { Notice } from '../profile/Notice.tsx';
import { useHydrated } from '../useHydrated.ts';

interface Props {
  locale: Locale;
  initial: ProfileCardData[];
}

export default function BlockedList({ locale, initial }: Props) {
  const [profiles, setProfiles] = useState(initial);
  const hydrated = useHydrated();
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);

  async function unblock(profile: ProfileCardData) {
    setNotice(null);
    try {
      await api('DELETE', '/block.php', { profile_id: profile.id });
      setProfiles((list) => list.filter((p) => p.id !== profile.id));
      setNotice({ tone: 'success', text: m.unblock_done({ name: profile.name }, { locale }) });
    } catch (e) {
      setNotice({ tone: 'error', text: e instanceof ApiError ? e.message : String(e) });
    }
  }

  return (
    <section aria-labelledby="blocked-title" className="card space-y-3 p-5 md:p-7">
      <h2 id="blocked-title" className="text-lg font-bold">{m.blocked_title({}, { locale })}</h2>
      <p className="text-sm text-gray-700">{profiles.length ? m.blocked_intro({}, { locale }) : m.blocked_empty({}, { locale })}</p>
      {profiles.length > 0 && (
        <ul className="divide-y divide-gray-100">
          {profiles.map((p) => (
            <li key={p.id} className="flex items-center gap-3 py-2.5" data-blocked={p.id}>
              {p.main_image ? (
                <img src={p.main_image.thumb_filename} alt="" width={40} height={40} className="h-10 w-10 rounded-full object-cover" />
              ) : (
                <span aria-hidden="true" className="grid h-10 w-10 place-items-center rounded-full bg-gray-200 font-bold text-gray-600">{p.name.charAt(0).toUpperCase()}</span>
              )}
              <a href={`/members/${p.id}`} className="min-w-0 flex-1 truncate font-semibold text-gray-900 no-underline hover:underline">{p.name}, {p.age}</a>
              <button type="button" className="btn-light px-3 py-1.5 text-sm" onClick={() => void unblock(p)} disabled={!hydrated}>{m.profile_unblock({}, { locale })}</button>
            </li>
          ))}
        </ul>
      )}
      <Notice tone={notice?.tone ?? 'success'}>{notice?.text}</Notice>
    </section>
  );
}
