/** /signup-matches: the members suggested after signup (GET /api/signup-matches.php) as a grid of cards. */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { $signupMatches, loadSignupMatches } from '../../stores/signup.ts';
import MemberCard from './MemberCard.tsx';
import { FormAlert } from './form.tsx';

export default function SignupMatches({ locale }: { locale: Locale }) {
  const o = { locale };
  const profiles = useStore($signupMatches);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    loadSignupMatches().catch(() => setFailed(true));
  }, []);

  if (failed && !profiles) {
    return (
      <div className="space-y-4">
        <FormAlert>{m.signup_matches_failed({}, o)}</FormAlert>
        <a href="/members" className="btn-primary">
          {m.nav_search({}, o)}
        </a>
      </div>
    );
  }
  if (!profiles) {
    return (
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4 lg:grid-cols-4" aria-busy="true" aria-label={m.form_loading({}, o)}>
        {Array.from({ length: 8 }, (_, i) => (
          <li key={i} className="card aspect-square animate-pulse bg-gray-100" />
        ))}
      </ul>
    );
  }
  if (profiles.length === 0) {
    return (
      <div className="card flex flex-col items-center gap-4 px-6 py-12 text-center">
        <span aria-hidden="true" className="i-tabler-user-search text-5xl text-primary/70" />
        <p className="max-w-md text-gray-700">{m.signup_matches_empty({}, o)}</p>
        <a href="/members?all=1" className="btn-primary">
          {m.nav_search({}, o)}
        </a>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 md:gap-4 lg:grid-cols-4">
        {profiles.map((profile) => (
          <li key={profile.id}>
            <MemberCard locale={locale} member={profile} href={`/members/${profile.id}`} />
          </li>
        ))}
      </ul>
      <div className="text-center">
        <a href="/members" className="btn-light">
          {m.nav_search({}, o)}
        </a>
      </div>
    </div>
  );
}
