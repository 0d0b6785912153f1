import type { Migration } from 'kysely';
import * as m20261123_0001 from './2026-11-23-0001-members.ts';
import * as m20261123_0002 from './2026-11-23-0002-account-settings.ts';
import * as m20261123_0003 from './2026-11-23-0003-push-subscriptions.ts';
import * as m20261124_0005 from './2026-11-24-0005-rate-limits.ts';
import * as m20261124_0006 from './2026-11-24-0006-ledger-refs.ts';
import * as m20261124_0007 from './2026-11-24-0007-listing.ts';
import * as m20261125_0008 from './2026-11-25-0008-reach.ts';
import * as m20261125_0009 from './2026-11-25-0009-chat.ts';
import * as m20261125_0010 from './2026-11-25-0010-payments.ts';
import * as m20261125_0013 from './2026-11-25-0013-discounts.ts';
import * as m20261125_0014 from './2026-11-25-0014-direct-debit.ts';
import * as m20261125_0016 from './2026-11-25-0016-saved-cards.ts';
import * as m20261125_0017 from './2026-11-25-0017-invoices.ts';
import * as m20261125_0018 from './2026-11-25-0018-conversations-started.ts';
import * as m20261125_0019 from './2026-11-25-0019-session-rows-notify.ts';
import * as m20261126_0020 from './2026-11-26-0020-invoice-snapshot.ts';
import * as m20261126_0021 from './2026-11-26-0021-payment-reversals.ts';
import * as m20261126_0022 from './2026-11-26-0022-console.ts';
import * as m20261126_0023 from './2026-11-26-0023-photo-screening.ts';
import * as m20261126_0024 from './2026-11-26-0024-complaints-review.ts';
import * as m20261126_0025 from './2026-11-26-0025-fictional-inbox.ts';
import * as m20261126_0026 from './2026-11-26-0026-held-messages.ts';
import * as m20261126_0027 from './2026-11-26-0027-attribution.ts';
import * as m20261126_0028 from './2026-11-26-0028-revenue-postbacks.ts';
import * as m20261126_0028b from './2026-11-26-0028-revenue-postbacks-days.ts';
import * as m20261126_0029 from './2026-11-26-0029-console-indexes.ts';
import * as m20261126_0042 from './2026-11-26-0042-site-secrets.ts';
import * as m20261126_0035 from './2026-11-26-0035-revenue-payers.ts';
import * as m20261126_0037 from './2026-11-26-0037-pool-own-brand.ts';
import * as m20261126_0075 from './2026-11-26-0075-brands.ts';
import * as m20261126_0044 from './2026-11-26-0044-queue-count-indexes.ts';
import * as m20261126_0055 from './2026-11-26-0055-pool-listing.ts';
import * as m20261126_0060 from './2026-11-26-0060-fictional-conversation-brand.ts';
import * as m20261127_0100 from './2026-11-27-0100-pool-listing-cover.ts';
import * as m20261127_0300 from './2026-11-27-0300-listing-changes-notify.ts';

/**
 * Every migration of this folder, by file name without extension. Imported statically, not
 * read from the folder at run time, so the list survives bundling; a unit test checks that
 * it names every file here. Add a new file's import and entry at the end.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-23-0001-members': m20261123_0001,
  '2026-11-23-0002-account-settings': m20261123_0002,
  '2026-11-23-0003-push-subscriptions': m20261123_0003,
  '2026-11-24-0005-rate-limits': m20261124_0005,
  '2026-11-24-0006-ledger-refs': m20261124_0006,
  '2026-11-24-0007-listing': m20261124_0007,
  '2026-11-25-0008-reach': m20261125_0008,
  '2026-11-25-0009-chat': m20261125_0009,
  '2026-11-25-0010-payments': m20261125_0010,
  '2026-11-25-0013-discounts': m20261125_0013,
  '2026-11-25-0014-direct-debit': m20261125_0014,
  '2026-11-25-0016-saved-cards': m20261125_0016,
  '2026-11-25-0017-invoices': m20261125_0017,
  '2026-11-25-0018-conversations-started': m20261125_0018,
  '2026-11-25-0019-session-rows-notify': m20261125_0019,
  '2026-11-26-0020-invoice-snapshot': m20261126_0020,
  '2026-11-26-0021-payment-reversals': m20261126_0021,
  '2026-11-26-0022-console': m20261126_0022,
  '2026-11-26-0023-photo-screening': m20261126_0023,
  '2026-11-26-0024-complaints-review': m20261126_0024,
  '2026-11-26-0025-fictional-inbox': m20261126_0025,
  '2026-11-26-0026-held-messages': m20261126_0026,
  '2026-11-26-0027-attribution': m20261126_0027,
  '2026-11-26-0028-revenue-postbacks': m20261126_0028,
  '2026-11-26-0028-revenue-postbacks-days': m20261126_0028b,
  '2026-11-26-0029-console-indexes': m20261126_0029,
  '2026-11-26-0042-site-secrets': m20261126_0042,
  '2026-11-26-0035-revenue-payers': m20261126_0035,
  '2026-11-26-0037-pool-own-brand': m20261126_0037,
  '2026-11-26-0044-queue-count-indexes': m20261126_0044,
  '2026-11-26-0075-brands': m20261126_0075,
  '2026-11-26-0055-pool-listing': m20261126_0055,
  '2026-11-26-0060-fictional-conversation-brand': m20261126_0060,
  '2026-11-27-0100-pool-listing-cover': m20261127_0100,
  '2026-11-27-0300-listing-changes-notify': m20261127_0300,
};
