/**
 * The console's chrome: a top bar (staff e-mail, role, brand scope, language switch, log out) and
 * the navigation, whose entries follow the role's permissions (lib/nav.ts): a sidebar at 1280 px, a
 * menu behind a button below the lg breakpoint (768 px).
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { may } from '../../../src/contract/console.ts';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../../src/lib/console-locale.ts';
import { m } from '../paraglide/messages.js';
import { NAV, type NavId } from '../lib/nav.ts';
import { chooseLocale } from '../lib/locale.ts';
import { label } from '../lib/labels.ts';
import { $me, loadMe, logout } from '../stores/staff.ts';

interface Props {
  locale: ConsoleLocale;
  section: NavId;
}

export default function ConsoleShell({ locale, section }: Props) {
  const o = { locale };
  const me = useStore($me);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    void loadMe().catch(() => undefined);
  }, []);
  const entries = me ? NAV.filter((entry) => may(me.staff.role, entry.permission)) : [];
  const scope = me ? (me.staff.brands === null ? m.scope_all({}, o) : me.brands.map((b) => b.name).join(', ') || '—') : '';

  const links = (
    <ul className="flex flex-col gap-0.5">
      {entries.map((entry) => (
        <li key={entry.id}>
          <a
            href={entry.href}
            aria-current={entry.id === section ? 'page' : undefined}
            className={`flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium no-underline ${entry.id === section ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100'}`}
          >
            <span className={`${entry.icon} text-lg`} aria-hidden="true" />
            {label(`nav_${entry.id}`, locale)}
          </a>
        </li>
      ))}
    </ul>
  );

  return (
    <>
      <header className="lg:col-start-2 sticky top-0 z-20 flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 lg:px-6">
        <button type="button" className="btn-light lg:hidden" aria-expanded={open} aria-controls="console-menu" onClick={() => setOpen(!open)}>
          <span className="i-tabler-menu-2" aria-hidden="true" />
          {m.menu({}, o)}
        </button>
        <a href="/console/members" className="font-bold text-slate-900 no-underline lg:hidden">{m.console_name({}, o)}</a>
        <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
          {me && (
            <div className="min-w-0 text-right leading-tight" data-testid="staff-identity">
              <div className="truncate font-medium" title={me.staff.email}>{me.staff.email}</div>
              <div className="truncate text-xs text-slate-500">
                <span className="font-semibold text-slate-700">{label(`role_${me.staff.role}`, locale)}</span> · {scope}
              </div>
            </div>
          )}
          <label className="sr-only" htmlFor="console-language">{m.language({}, o)}</label>
          <select id="console-language" className="field w-auto py-1" value={locale} onChange={(e) => chooseLocale(e.currentTarget.value as ConsoleLocale)}>
            {CONSOLE_LOCALES.map((l) => (
              <option key={l} value={l}>{l === 'nl' ? 'Nederlands' : 'English'}</option>
            ))}
          </select>
          <button type="button" className="btn-light" onClick={() => void logout()}>
            <span className="i-tabler-logout" aria-hidden="true" />
            <span className="hidden md:inline">{m.logout({}, o)}</span>
            <span className="sr-only md:hidden">{m.logout({}, o)}</span>
          </button>
        </div>
      </header>
      <nav
        id="console-menu"
        aria-label={m.nav_label({}, o)}
        className={`${open ? 'block' : 'hidden'} border-b border-slate-200 bg-white px-2 py-2 lg:block lg:row-span-2 lg:row-start-1 lg:col-start-1 lg:border-b-0 lg:border-r lg:px-3 lg:py-3 lg:min-h-screen`}
      >
        <a href="/console/members" className="mb-3 hidden items-center gap-2 px-3 py-1 font-bold text-slate-900 no-underline lg:flex">
          <span className="i-tabler-shield-half-filled text-xl text-indigo-700" aria-hidden="true" />
          {m.console_name({}, o)}
        </a>
        {links}
      </nav>
    </>
  );
}
