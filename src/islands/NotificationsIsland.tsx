import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { m } from '../paraglide/messages.js';
import type { Locale } from '../lib/locales.ts';
import type { SiteUser } from '../contract/user.ts';
import { ApiError } from '../stores/api.ts';
import {
  $notifications,
  EMAIL_NOTIFICATION_TYPES,
  loadNotifications,
  pushSupported,
  reenableEmails,
  setEmailNotification,
  setPushNotifications,
  type EmailNotificationType,
} from '../stores/notifications.ts';
import { Notice } from './profile/Notice.tsx';
import { Switch } from './profile/Switch.tsx';
import { useSeedUser } from './profile/useSeedUser.ts';

interface Props {
  locale: Locale;
  user: SiteUser | null;
}

type MessageFn = (inputs: Record<string, never>, options: { locale: Locale }) => string;

const LABELS: Record<EmailNotificationType, [MessageFn, MessageFn]> = {
  new_conversations: [m.notification_new_conversations, m.notification_new_conversations_hint],
  new_messages: [m.notification_new_messages, m.notification_new_messages_hint],
  like: [m.notification_like, m.notification_like_hint],
  unread_message_reminders: [m.notification_unread_message_reminders, m.notification_unread_message_reminders_hint],
  promotions: [m.notification_promotions, m.notification_promotions_hint],
  weekly_updates: [m.notification_weekly_updates, m.notification_weekly_updates_hint],
  news: [m.notification_news, m.notification_news_hint],
  reminders: [m.notification_reminders, m.notification_reminders_hint],
};

const REASONS: Record<string, MessageFn> = {
  fbl: m.notifications_disabled_fbl,
  bounce: m.notifications_disabled_bounce,
  listunsubscribe: m.notifications_disabled_listunsubscribe,
};

/** /notifications: the e-mail types of SPEC §3 as switches, push on/off, and the disabled-e-mails alert. */
export default function NotificationsIsland({ locale, user: initialUser }: Props) {
  const o = { locale };
  useSeedUser(initialUser);
  const settings = useStore($notifications);
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // Push support is known only in the browser; the server render shows the switch disabled.
  const [canPush, setCanPush] = useState<boolean | null>(null);

  useEffect(() => {
    if (status?.tone !== 'success') return;
    const timer = setTimeout(() => setStatus(null), 4000);
    return () => clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    setCanPush(pushSupported());
    loadNotifications().catch(() => setFailed(true));
  }, []);

  useEffect(() => {
    // The disabled-notifications banner links to #disabled, which exists once the settings are in.
    if (settings && location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }, [settings !== null]);

  async function run(action: () => Promise<unknown>, success: string) {
    setBusy(true);
    setStatus(null);
    try {
      await action();
      setStatus({ tone: 'success', text: success });
    } catch (error) {
      setStatus({ tone: 'error', text: error instanceof ApiError && error.code !== 'network' && error.message ? error.message : m.error_generic({}, o) });
    } finally {
      setBusy(false);
    }
  }

  if (failed) return <Notice tone="error">{m.error_generic({}, o)}</Notice>;
  if (!settings) return <p className="text-gray-600" role="status">{m.form_loading({}, o)}</p>;

  const reasons = [...new Set(settings.disabled.map((d) => d.reason))];

  return (
    <div className="flex flex-col gap-6">
      {reasons.length > 0 && (
        <section id="disabled" aria-labelledby="disabled-title" className="rounded-2xl border-l-4 border-danger bg-danger/10 p-5">
          <h2 id="disabled-title" className="mb-1 text-lg font-bold text-[#5c0d16]">{m.notifications_disabled_title({}, o)}</h2>
          {reasons.map((reason) => (
            <p key={reason} className="text-[#5c0d16]">{(REASONS[reason] ?? m.notifications_disabled_other)({}, o)}</p>
          ))}
          <button type="button" className="btn-primary mt-4" disabled={busy} onClick={() => void run(reenableEmails, m.notifications_reenabled({}, o))}>
            {m.notifications_reenable({}, o)}
          </button>
        </section>
      )}

      {/* A toast (SPEC §9: at most 350 px wide), so switching does not move the list. */}
      <div className="pointer-events-none fixed inset-x-4 bottom-4 z-40 sm:left-auto sm:w-[350px]">
        <Notice tone={status?.tone ?? 'success'} floating>{status?.text}</Notice>
      </div>

      <section aria-labelledby="email-title" className="card p-5 md:p-7">
        <h2 id="email-title" className="text-xl font-bold">{m.notifications_email_title({}, o)}</h2>
        <p className="mb-2 text-gray-600">{m.notifications_email_intro({}, o)}</p>
        <div className="divide-y divide-gray-200">
          {EMAIL_NOTIFICATION_TYPES.map((type) => {
            const [label, hint] = LABELS[type];
            return (
              <Switch
                key={type}
                id={`notification-${type}`}
                label={label({}, o)}
                hint={hint({}, o)}
                checked={settings.email[type]}
                disabled={busy}
                onChange={(on) => void run(() => setEmailNotification(type, on), m.notifications_saved({}, o))}
              />
            );
          })}
        </div>
      </section>

      <section aria-labelledby="push-title" className="card p-5 md:p-7">
        <h2 id="push-title" className="text-xl font-bold">{m.notifications_push_title({}, o)}</h2>
        <Switch
          id="notification-push"
          label={m.notifications_push({}, o)}
          hint={canPush === false ? m.notifications_push_unsupported({}, o) : m.notifications_push_hint({}, o)}
          checked={canPush === true && settings.push}
          disabled={busy || canPush !== true}
          onChange={(on) => void run(() => setPushNotifications(on), m.notifications_saved({}, o))}
        />
      </section>
    </div>
  );
}
