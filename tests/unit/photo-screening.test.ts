/**
 * The pure rules of photo screening (issue 22, "Photo screening"; SPEC §3 main_image.status:
 * only an active photo is shown or used as a share image; SPEC §9 photo limits) and the tenant
 * setting that chooses when photos are screened.
 */
import { describe, expect, test } from 'vitest';
import { canDecide, countsTowardLimit, initialPhotoStatus, isPublicPhoto, PHOTO_REJECT_REASONS, queueOf } from '../../src/lib/photo-screening.ts';
import { parseTenant } from '../../src/tenant/schema.ts';
import { message } from '../../src/server/i18n.ts';
import { LOCALES } from '../../src/lib/locales.ts';

const minimal = {
  name: 'Flirt',
  domains: ['flirt.test'],
  company: { name: 'Flirt B.V.', address: 'Straat 1', kvk: '12345678', city: '1011 AA Amsterdam', country: 'Nederland' },
  support_email: 'support@flirt.test',
};

describe('photo screening rules', () => {
  test('before holds a new photo back, after shows it at once', () => {
    expect(initialPhotoStatus('before')).toBe('pending');
    expect(initialPhotoStatus('after')).toBe('active');
  });

  test('only an active photo is public', () => {
    expect(isPublicPhoto('active')).toBe(true);
    expect(isPublicPhoto('pending')).toBe(false);
    expect(isPublicPhoto('rejected')).toBe(false);
  });

  test('pending photos count toward the limit, rejected ones do not (the owner may upload another)', () => {
    expect(countsTowardLimit('active')).toBe(true);
    expect(countsTowardLimit('pending')).toBe(true);
    expect(countsTowardLimit('rejected')).toBe(false);
  });

  test('the queue a photo waits in, and whether it may still be decided', () => {
    expect(queueOf({ status: 'pending', reviewed_at: null })).toBe('pending');
    expect(queueOf({ status: 'active', reviewed_at: null })).toBe('after-review');
    expect(queueOf({ status: 'active', reviewed_at: '2026-11-26T10:00:00.000Z' })).toBeNull();
    expect(queueOf({ status: 'rejected', reviewed_at: '2026-11-26T10:00:00.000Z' })).toBeNull();
    expect(canDecide({ status: 'pending', reviewed_at: null })).toBe(true);
    expect(canDecide({ status: 'rejected', reviewed_at: '2026-11-26T10:00:00.000Z' })).toBe(false);
  });

  test('every reason has a text in every language', () => {
    for (const reason of PHOTO_REJECT_REASONS) {
      const nl = message(`photo_reason_${reason}`, 'nl');
      for (const locale of LOCALES) {
        const text = message(`photo_reason_${reason}`, locale, {}, 'nl');
        expect(text.length).toBeGreaterThan(5);
        if (locale !== 'nl') expect(text, `${locale} ${reason}`).not.toBe(nl);
      }
    }
  });
});

describe('tenant.json photo_moderation', () => {
  test('defaults to before', () => {
    const result = parseTenant('flirt', minimal);
    expect('tenant' in result && result.tenant.photo_moderation).toBe('before');
  });

  test('after is accepted, anything else is refused with the choices', () => {
    const after = parseTenant('flirt', { ...minimal, photo_moderation: 'after' });
    expect('tenant' in after && after.tenant.photo_moderation).toBe('after');
    const wrong = parseTenant('flirt', { ...minimal, photo_moderation: 'never' });
    expect('errors' in wrong && wrong.errors).toEqual(['photo_moderation: must be one of before, after']);
  });
});
