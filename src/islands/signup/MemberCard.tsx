/** A member as the signup pages show one: photo, name, age and place, linking to the profile. */
import { m } from '../../paraglide/messages.js';
import type { Locale } from '../../lib/locales.ts';
import { memberImage, type MemberCard as Card } from '../../stores/signup.ts';

export default function MemberCard({ locale, member, href }: { locale: Locale; member: Card; href?: string }) {
  const image = memberImage(member);
  const place = [member.city, member.region].filter(Boolean).join(', ');
  const content = (
    <>
      <div className="relative aspect-square overflow-hidden bg-gradient-to-br from-primary/25 to-secondary/30">
        {image ? (
          <img src={image} alt="" loading="lazy" className="h-full w-full object-cover transition-transform duration-300 group-hover:scale-105" />
        ) : (
          <span aria-hidden="true" className="grid h-full w-full place-items-center text-5xl font-bold text-white/90">
            {member.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/75 to-transparent px-3 pb-2.5 pt-8 text-white">
          <p className="truncate font-bold leading-tight">
            {member.name}
            {member.age != null && <span className="font-normal">, {m.lander_age({ age: member.age }, { locale })}</span>}
          </p>
          {place && <p className="truncate text-xs text-white/85">{place}</p>}
        </div>
      </div>
    </>
  );
  if (!href) return <div className="group card overflow-hidden">{content}</div>;
  return (
    <a href={href} className="group card block overflow-hidden no-underline transition-shadow hover:shadow-lg focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary">
      {content}
    </a>
  );
}
