/**
 * The member-id signup block of /members/{id}/signup (SPEC §2): "sign up to meet {name}" with the
 * member's card when the API shows the member to a visitor, else the generic block.
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { $signupMember, loadSignupMember } from '../../stores/signup.ts';
import MemberCard from './MemberCard.tsx';

export default function MemberSignupBlock({ locale, memberId }: { locale: Locale; memberId: string }) {
  const o = { locale };
  const member = useStore($signupMember);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    loadSignupMember(memberId).finally(() => setLoaded(true));
  }, [memberId]);

  const title = member ? m.member_signup_title({ name: member.name }, o) : m.member_signup_generic_title({}, o);
  const text = member ? m.member_signup_text({ name: member.name }, o) : m.member_signup_generic_text({}, o);
  return (
    <section className="card mx-auto flex w-full max-w-3xl text-[#1d1a22] flex-col items-center gap-6 p-6 text-center md:flex-row md:p-8 md:text-left" aria-labelledby="member-signup-title" aria-busy={!loaded || undefined}>
      {member && (
        <div className="w-48 shrink-0 md:w-56">
          <MemberCard locale={locale} member={member} />
        </div>
      )}
      <div className="space-y-4">
        <h1 id="member-signup-title" className="text-2xl font-bold leading-tight md:text-3xl">
          {title}
        </h1>
        <p className="text-gray-700">{text}</p>
        <button type="button" className="btn-primary px-8 py-3 text-base" data-open-signup>
          {m.nav_signup({}, o)}
        </button>
      </div>
    </section>
  );
}
