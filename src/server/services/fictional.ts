import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { EventBus } from '../bus.ts';
import { CONSOLE_PAGE_SIZE, type StaffView } from '../../contract/console.ts';
import type { FictionalChanges, FictionalNew } from '../../contract/inbox.ts';
import { nowIso } from '../db/engine.ts';
import { AppError, notFound } from '../errors.ts';
import { audit } from './console.ts';
import { brandCondition, brandsToQuery, inScope } from './brand-scope.ts';
import { profileColumns, profileView } from './profiles.ts';
import { mainImages } from './main-image.ts';
import { publishToConsole } from './console-events.ts';
import type { PhotoService, PhotoUpload } from './photos.ts';

export interface FictionalDeps {
  db: Kysely<Database>;
  bus: EventBus;
  photos: PhotoService;
  tenants: () => Tenant[];
}

/**
 * Fictional profiles of the console (issue 22, DESIGN §10): profiles without a member, always
 * `fictional` = 1 (the marker and warning on every surface come from that flag), with every field
 * a member's profile has and photos screened like a member's. Retiring one takes it out of every
 * listing and search; its conversations stay readable, closed to new messages. Every change is
 * audited.
 */
export function createFictionalService(deps: FictionalDeps) {
  const { db, photos } = deps;

  const tenantOf = (id: string): Tenant => {
    const tenant = deps.tenants().find((t) => t.id === id);
    if (!tenant) throw notFound();
    return tenant;
  };

  /** A fictional profile in the staff member's scope; 404 for any other profile. */
  async function requireFictional(staff: StaffView, id: number) {
    const profile = await db.selectFrom('profiles').selectAll().where('id', '=', id).where('fictional', '=', 1).where('user_id', 'is', null).executeTakeFirst();
    if (!profile || !inScope(staff, profile.tenant_id)) throw notFound();
    return profile;
  }

  async function view(id: number) {
    const profile = await db.selectFrom('profiles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const [counts, photoList] = await Promise.all([conversationCounts([id]), photos.list(id)]);
    return {
      profile: { ...profileView(profile), brand: profile.tenant_id, fictional: true as const, retired_at: profile.retired_at, created_at: profile.created_at, ...(counts.get(id) ?? { conversations: 0, waiting: 0 }) },
      photos: photoList,
    };
  }

  /** Conversations of each profile, and how many of them wait for an answer. */
  async function conversationCounts(ids: number[]): Promise<Map<number, { conversations: number; waiting: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('conversation_members as cm')
      .innerJoin('conversations as c', 'c.id', 'cm.conversation_id')
      .select(['cm.profile_id', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.count<number | string>('c.waiting_since').as('w')])
      .where('cm.profile_id', 'in', ids)
      .groupBy('cm.profile_id')
      .execute();
    return new Map(rows.map((r) => [r.profile_id, { conversations: Number(r.n), waiting: Number(r.w) }]));
  }

  return {
    /** GET /api/console/fictional: the brand's (or every brand in scope's) fictional profiles, newest first, with their conversation counts. */
    async list(staff: StaffView, input: { brand?: string; retired?: boolean; page: number }) {
      let q = db.selectFrom('profiles').where('fictional', '=', 1).where('user_id', 'is', null);
      q = q.where(brandCondition('tenant_id', brandsToQuery(staff, input.brand)));
      q = input.retired ? q.where('retired_at', 'is not', null) : q.where('retired_at', 'is', null);
      const rows = await q
        .select(['id', 'tenant_id', 'name', 'gender', 'birth_date', 'country', 'region', 'city', 'status', 'retired_at', 'created_at'])
        .orderBy('id', 'desc')
        .limit(CONSOLE_PAGE_SIZE + 1)
        .offset((input.page - 1) * CONSOLE_PAGE_SIZE)
        .execute();
      const page = rows.slice(0, CONSOLE_PAGE_SIZE);
      const ids = page.map((r) => r.id);
      const [counts, images] = await Promise.all([conversationCounts(ids), mainImages(db, ids)]);
      return {
        profiles: page.map(({ tenant_id, birth_date, ...r }) => ({
          ...r,
          brand: tenant_id,
          birth_date,
          fictional: true as const,
          main_image: images.get(r.id) ?? null,
          ...(counts.get(r.id) ?? { conversations: 0, waiting: 0 }),
        })),
        page: input.page,
        more: rows.length > CONSOLE_PAGE_SIZE,
      };
    },

    /** GET /api/console/fictional/{id}: every field, its photos (any status), its counts. */
    async get(staff: StaffView, id: number) {
      await requireFictional(staff, id);
      return view(id);
    },

    /** POST /api/console/fictional?brand=: a new fictional profile of the brand, listed at once. */
    async create(staff: StaffView, brand: string, input: FictionalNew, ip: string) {
      const tenant = tenantOf(brand);
      const columns = profileColumns(tenant, { country: input.country }, input, null);
      const now = nowIso();
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('profiles')
          .values({
            ...columns,
            name: columns.name ?? input.name,
            gender: input.gender,
            sexuality: input.sexuality,
            birth_date: input.birth_date,
            country: input.country,
            tenant_id: tenant.id,
            user_id: null,
            fictional: 1,
            status: 'active',
            listed: 1,
            last_seen_at: now,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(trx, { staff, action: 'fictional_create', brand: tenant.id, object: { type: 'profile', id: row.id }, ip, details: { name: input.name } });
        return row.id;
      });
      return view(id);
    },

    /** POST /api/console/fictional/{id}: changes any of its fields, after the rules a member's profile follows. */
    async update(staff: StaffView, id: number, changes: FictionalChanges, ip: string) {
      const profile = await requireFictional(staff, id);
      if (Object.keys(changes).length === 0) throw new AppError('invalid_input', 400, { key: 'error_bad_request' });
      const columns = profileColumns(tenantOf(profile.tenant_id), profile, changes, null);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('profiles').set(columns).where('id', '=', id).execute();
        await audit(trx, { staff, action: 'fictional_edit', brand: profile.tenant_id, object: { type: 'profile', id }, ip, details: { fields: Object.keys(changes) } });
      });
      return view(id);
    },

    /**
     * POST /api/console/fictional/{id}/retire: no longer listed or searchable, its waiting
     * conversations leave the inbox (claims end); members keep reading them, and may not write.
     */
    async retire(staff: StaffView, id: number, reason: string, ip: string) {
      const profile = await requireFictional(staff, id);
      const waiting = await db.transaction().execute(async (trx) => {
        const done = await trx.updateTable('profiles').set({ retired_at: nowIso(), listed: 0, updated_at: nowIso() }).where('id', '=', id).where('retired_at', 'is', null).executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new AppError('console_already', 409);
        const conversations = trx.selectFrom('conversation_members').select('conversation_id').where('profile_id', '=', id);
        const left = await trx.selectFrom('conversations').select('id').where('id', 'in', conversations).where('waiting_since', 'is not', null).execute();
        await trx.updateTable('conversations').set({ waiting_since: null, claimed_by: null, claimed_until: null }).where('id', 'in', conversations).execute();
        await audit(trx, { staff, action: 'fictional_retire', brand: profile.tenant_id, object: { type: 'profile', id }, reason, ip });
        return left;
      });
      // Open inbox pages drop the conversations that no longer wait.
      for (const c of waiting) await publishToConsole(deps.bus, { type: 'inbox_release', brand: profile.tenant_id, conversation_id: c.id });
      return view(id);
    },

    /** POST /api/console/fictional/{id}/photos: a photo, screened as the brand's photo_moderation says. */
    async upload(staff: StaffView, id: number, file: PhotoUpload, ip: string) {
      const profile = await requireFictional(staff, id);
      if (profile.retired_at !== null) throw new AppError('profile_retired', 409);
      const list = await photos.uploadFictional(profile.tenant_id, id, file);
      const added = list.reduce((a, b) => (b.id > a.id ? b : a));
      await audit(db, { staff, action: 'fictional_photo_upload', brand: profile.tenant_id, object: { type: 'profile', id }, ip, details: { photo_id: added.id, status: added.status } });
      return { photos: list };
    },

    /** POST /api/console/fictional/{id}/photos/{photo}: makes it the main photo, or deletes it. */
    async photo(staff: StaffView, id: number, photoId: number, action: 'main' | 'delete', ip: string) {
      const profile = await requireFictional(staff, id);
      const list = action === 'main' ? await photos.setMain(id, photoId) : await photos.remove(id, photoId);
      await audit(db, { staff, action: `fictional_photo_${action}`, brand: profile.tenant_id, object: { type: 'profile', id }, ip, details: { photo_id: photoId } });
      return { photos: list };
    },
  };
}

export type FictionalService = ReturnType<typeof createFictionalService>;
