import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../bus.ts';
import type { Tenant } from '../../tenant/schema.ts';
import type { MailService } from './mail.ts';
import type { StaffView } from '../../contract/console.ts';
import type { ComplaintActionInput, ComplaintsInput } from '../../contract/console.ts';
import type { StatementView } from '../../contract/likes.ts';
import { CONSOLE_PAGE_SIZE } from '../../contract/console.ts';
import { nowIso } from '../db/engine.ts';
import { AppError, notFound } from '../errors.ts';
import { message } from '../i18n.ts';
import { audit } from './console.ts';
import { brandCondition, brandsToQuery, inScope, type BrandIds } from './brand-scope.ts';
import { publishToMember } from './events.ts';
import { removePhoto, staffMediaUrl } from './moderation.ts';
import { photosShown, POOL_PHOTO_STATUS } from './pool-view.ts';
import { announceSuspension, suspendMember } from './suspension.ts';
import { canAct, decisionOf, needsMember, photoReasonOf, reasonFits, type ComplaintDecision, type ComplaintDecisionReason } from '../../lib/complaints.ts';
import { ageOn } from '../../lib/account-rules.ts';

/** The newest messages of a reported conversation a complaint's page shows. */
export const COMPLAINT_CONVERSATION_MAX = 500;
/** The statements a member's page lists, newest first. */
export const STATEMENTS_SHOWN = 20;

type Executor = Kysely<Database> | Transaction<Database>;

/** A statement of a decision to one member, on their own brand. */
type Statement = { userId: number; brand: string; party: 'reporter' | 'reported'; decision: ComplaintDecision; reason: string };

const handledAlready = () => new AppError('complaint_handled', 409);
const needsReason = () => new AppError('complaint_decision_reason', 400, { field: 'reason' });


/**
 * The statement of a decision as the member concerned reads it, in their language (DSA art. 17):
 * what was decided, on which ground, and how to object where they read it: in the mail by
 * replying to it, on /profile through the complaints page (either way, or the support address).
 */
export function statementText(
  statement: { party: 'reporter' | 'reported'; decision: ComplaintDecision; reason: string; complaint_id: number },
  locale: string,
  tenant: Pick<Tenant, 'support_email' | 'locales'>,
  where: 'mail' | 'page',
): string {
  const fallback = tenant.locales.fallback;
  return message(
    where === 'mail' ? 'complaint_statement' : 'complaint_statement_page',
    locale,
    {
      decision: message(`complaint_decision_${statement.party}_${statement.decision}`, locale, { number: statement.complaint_id }, fallback),
      ground: message(`complaint_ground_${statement.reason}`, locale, {}, fallback),
      support: tenant.support_email,
    },
    fallback,
  );
}

/**
 * Complaints in the operator console (issue 22, "Complaints"; DSA art. 16 and 17): the queue of
 * what members reported on /complaints, one complaint with both members and, for a complaint
 * about a member, their conversation with the reporter (the only way staff read members'
 * messages besides the fictional inbox; each such reading is in the audit log), and the
 * decision: dismiss, warn, remove a photo or suspend, with a ground. The reporter, and the
 * member concerned when something was done to them, each get a statement of the decision in
 * their language, by mail and on /profile.
 */
export function createComplaintService(deps: {
  db: Kysely<Database>;
  bus: EventBus;
  mail: MailService;
  tenants: () => Tenant[];
  /** A removed photo's public copy goes (photos.syncPublic). */
  syncPublic?: (photoIds: readonly number[]) => Promise<void>;
  log?: (line: string) => void;
}) {
  const { db, bus } = deps;
  const log = deps.log ?? ((line: string) => console.error(line));
  const tenantOf = (id: string) => deps.tenants().find((t) => t.id === id);

  /**
   * A complaint filed on a brand in scope, or about a member whose home brand is (issue 24: a
   * complaint filed on one brand of a pool about a member of another is both brands' to see);
   * otherwise 404 (another brand's complaint does not exist for the staff member).
   */
  async function requireComplaint(q: Executor, staff: StaffView, id: number) {
    const row = await q
      .selectFrom('complaints')
      .leftJoin('profiles as reported', 'reported.id', 'complaints.reported_profile_id')
      .selectAll('complaints')
      .select('reported.tenant_id as reported_brand')
      .where('complaints.id', '=', id)
      .executeTakeFirst();
    if (!row || !(inScope(staff, row.tenant_id) || (row.reported_brand !== null && inScope(staff, row.reported_brand)))) throw notFound();
    return row;
  }

  /** The brand an audit entry is filed under: the complaint's, or the member's brand through which the staff member sees it. */
  const auditBrand = (staff: StaffView, row: { tenant_id: string; reported_brand: string | null }) => (inScope(staff, row.tenant_id) ? row.tenant_id : (row.reported_brand ?? row.tenant_id));

  /** Complaints filed on `brands`, or about members of `brands` filed on another brand of their pool. */
  const filedOnOrAbout = (brands: BrandIds) => (eb: ExpressionBuilder<Database, 'complaints'>) =>
    brands === null
      ? eb.val(true)
      : eb.or([
          brandCondition('complaints.tenant_id', brands),
          eb.exists(eb.selectFrom('profiles as concerned').select('concerned.id').whereRef('concerned.id', '=', 'complaints.reported_profile_id').where(brandCondition('concerned.tenant_id', brands))),
        ]);

  /**
   * A member's card as staff see it on a complaint: no e-mail address, no payments; for a member of
   * a brand outside the staff member's scope (another of the pool, issue 24) no signup date either:
   * their account is their brand's, and of their photos only the approved ones.
   */
  async function card(staff: StaffView, by: { userId?: number; profileId?: number }) {
    let q = db
      .selectFrom('profiles')
      .leftJoin('users', 'users.id', 'profiles.user_id')
      .select(['profiles.id as profile_id', 'profiles.user_id', 'profiles.tenant_id', 'profiles.name', 'profiles.gender', 'profiles.birth_date', 'profiles.country', 'profiles.city', 'profiles.about', 'profiles.status', 'profiles.fictional', 'users.status as user_status', 'users.suspended_at', 'users.signup_date']);
    q = by.profileId !== undefined ? q.where('profiles.id', '=', by.profileId) : q.where('profiles.user_id', '=', by.userId!);
    const row = await q.executeTakeFirst();
    if (!row) return null;
    // Of a member of another brand of the pool, only the photos the pool shows (pool-view.ts photosShown).
    const shown = photosShown(staff, row.tenant_id, deps.tenants());
    const photos = shown === null ? [] : await db.selectFrom('photos').select(['id', 'status', 'is_main', 'filename', 'thumb_filename']).where('profile_id', '=', row.profile_id).$if(shown === 'approved', (q) => q.where('status', '=', POOL_PHOTO_STATUS)).orderBy('position').execute();
    return {
      user_id: row.user_id,
      profile_id: row.profile_id,
      brand: row.tenant_id,
      name: row.name,
      gender: row.gender,
      age: ageOn(row.birth_date, new Date()),
      country: row.country,
      city: row.city,
      about: row.about,
      status: row.suspended_at ? 'suspended' : (row.user_status ?? row.status),
      fictional: row.fictional === 1,
      ...(inScope(staff, row.tenant_id) ? { signup_date: row.signup_date } : {}),
      photos: photos.map((p) => ({ id: p.id, status: p.status, main: p.is_main === 1, url: staffMediaUrl(p.filename), thumb_url: staffMediaUrl(p.thumb_filename) })),
    };
  }

  /** The conversation of the reporter and the member reported, oldest message first (its newest COMPLAINT_CONVERSATION_MAX). */
  async function conversationBetween(reporterProfileId: number, reportedProfileId: number) {
    const conversation = await db
      .selectFrom('conversation_members as a')
      .innerJoin('conversation_members as b', 'b.conversation_id', 'a.conversation_id')
      .select('a.conversation_id')
      .where('a.profile_id', '=', reporterProfileId)
      .where('b.profile_id', '=', reportedProfileId)
      .executeTakeFirst();
    if (!conversation) return null;
    const rows = await db
      .selectFrom('messages')
      .select(['id', 'sender_profile_id', 'kind', 'body', 'media', 'photo_status', 'created_at'])
      .where('conversation_id', '=', conversation.conversation_id)
      .orderBy('id', 'desc')
      .limit(COMPLAINT_CONVERSATION_MAX)
      .execute();
    return {
      id: conversation.conversation_id,
      messages: rows.reverse().map((m) => ({
        id: m.id,
        from: m.sender_profile_id === reporterProfileId ? ('reporter' as const) : ('reported' as const),
        kind: m.kind,
        body: m.body,
        photo_url: m.kind === 'photo' && m.media ? staffMediaUrl(m.media) : null,
        photo_status: m.kind === 'photo' ? (m.photo_status ?? 'active') : null,
        media: m.kind === 'gift' || m.kind === 'gif' ? m.media : null,
        created_at: m.created_at,
      })),
    };
  }

  /** Sends the statements of a decision that committed, and tells the members' tabs. */
  async function afterDecision(complaint: { id: number }, statements: Statement[]) {
    for (const s of statements) {
      const tenant = tenantOf(s.brand);
      await publishToMember(bus, s.userId, { type: 'statement', complaint_id: complaint.id }).catch((error: Error) => log(`statement event: ${error.message}`));
      const user = await db.selectFrom('users').select(['email', 'language', 'status']).where('id', '=', s.userId).executeTakeFirst();
      if (!tenant || !user || user.status === 'deleted') continue;
      // A statement of reasons is a service mail the law asks for: sent whatever the member's mail preferences.
      const statement = statementText({ ...s, complaint_id: complaint.id }, user.language, tenant, 'mail');
      await deps.mail
        .send({ tenant, to: user.email, locale: user.language, kind: 'mail_complaint_decided', link: `https://${tenant.domain}/profile#statements`, params: { number: complaint.id, statement } })
        .catch((error: Error) => log(`complaint statement mail: ${error.message}`));
    }
  }

  return {
    /**
     * GET /api/console/complaints: oldest first within a status (open and in review when none is
     * asked), pages after `before`; with the waiting counts per brand in scope.
     */
    async queue(staff: StaffView, input: ComplaintsInput) {
      const q = db.selectFrom('complaints').where(filedOnOrAbout(brandsToQuery(staff, input.brand)));
      // The waiting counts of every brand in scope, whichever brand the page shows.
      const waiting = db
        .selectFrom('complaints')
        .where(brandCondition('complaints.tenant_id', brandsToQuery(staff)))
        .select((eb) => ['complaints.tenant_id', 'complaints.status', eb.fn.countAll<number | string>().as('n')])
        .where('complaints.status', 'in', ['open', 'in_review'])
        .groupBy(['complaints.tenant_id', 'complaints.status'])
        .execute();
      // And those about their members filed on another brand of a pool, counted under the member's brand.
      const scope = brandsToQuery(staff);
      const waitingAbout =
        scope === null
          ? Promise.resolve([])
          : db
              .selectFrom('complaints')
              .innerJoin('profiles as concerned', 'concerned.id', 'complaints.reported_profile_id')
              .where(brandCondition('concerned.tenant_id', scope))
              .where((eb) => eb.not(brandCondition('complaints.tenant_id', scope)))
              .select((eb) => ['concerned.tenant_id', 'complaints.status', eb.fn.countAll<number | string>().as('n')])
              .where('complaints.status', 'in', ['open', 'in_review'])
              .groupBy(['concerned.tenant_id', 'complaints.status'])
              .execute();
      const rows = await q
        .leftJoin('profiles as reporter', 'reporter.user_id', 'complaints.reporter_user_id')
        .leftJoin('profiles as reported', 'reported.id', 'complaints.reported_profile_id')
        .select([
          'complaints.id',
          'complaints.tenant_id',
          'complaints.reason',
          'complaints.subject',
          'complaints.status',
          'complaints.decision',
          'complaints.created_at',
          'complaints.reporter_user_id',
          'reporter.id as reporter_profile_id',
          'reporter.name as reporter_name',
          'complaints.reported_profile_id',
          'reported.name as reported_name',
          'reported.user_id as reported_user_id',
          'reported.fictional as reported_fictional',
        ])
        .$if(input.status !== undefined, (qb) => qb.where('complaints.status', '=', input.status!))
        .$if(input.status === undefined, (qb) => qb.where('complaints.status', 'in', ['open', 'in_review']))
        .$if(input.before !== undefined, (qb) => qb.where('complaints.id', '>', input.before!))
        .orderBy('complaints.id', 'asc')
        .limit(CONSOLE_PAGE_SIZE + 1)
        .execute();
      const page = rows.slice(0, CONSOLE_PAGE_SIZE);
      const counts = new Map<string, { brand: string; open: number; in_review: number }>();
      for (const r of [...(await waiting), ...(await waitingAbout)]) {
        const c = counts.get(r.tenant_id) ?? { brand: r.tenant_id, open: 0, in_review: 0 };
        c[r.status as 'open' | 'in_review'] += Number(r.n);
        counts.set(r.tenant_id, c);
      }
      return {
        complaints: page.map((r) => ({
          id: r.id,
          brand: r.tenant_id,
          reason: r.reason,
          subject: r.subject,
          status: r.status,
          decision: r.decision,
          created_at: r.created_at,
          reporter: { user_id: r.reporter_user_id, profile_id: r.reporter_profile_id, name: r.reporter_name },
          reported: r.reported_profile_id === null ? null : { profile_id: r.reported_profile_id, user_id: r.reported_user_id, name: r.reported_name, fictional: r.reported_fictional === 1 },
        })),
        next: rows.length > CONSOLE_PAGE_SIZE ? page[page.length - 1]!.id : null,
        counts: [...counts.values()].sort((a, b) => a.brand.localeCompare(b.brand)),
      };
    },

    /**
     * GET /api/console/complaints/{id}: the complaint, both members' cards and, for a complaint
     * about a member, their conversation with the reporter. Reading that conversation is audited.
     */
    async complaint(staff: StaffView, id: number, ip: string) {
      const row = await requireComplaint(db, staff, id);
      const reporter = await card(staff, { userId: row.reporter_user_id });
      const reported = row.reported_profile_id === null ? null : await card(staff, { profileId: row.reported_profile_id });
      const conversation = reporter && reported ? await conversationBetween(reporter.profile_id, reported.profile_id) : null;
      if (conversation) {
        await audit(db, { staff, action: 'complaint_conversation_read', brand: auditBrand(staff, row), object: { type: 'complaint', id: row.id }, ip, details: { conversation_id: conversation.id } });
      }
      return {
        complaint: {
          id: row.id,
          brand: row.tenant_id,
          reason: row.reason,
          subject: row.subject,
          message: row.message,
          status: row.status,
          created_at: row.created_at,
          decision: row.decision,
          decision_reason: row.decision_reason,
          decided_at: row.decided_at,
          decided_by: row.decided_by,
          reviewed_at: row.reviewed_at,
          reviewed_by: row.reviewed_by,
        },
        reporter,
        reported,
        conversation,
      };
    },

    /**
     * POST /api/console/complaints/{id}: takes the complaint in hand (`review`) or decides it.
     * One conditional update: of two staff members deciding at once, one decides and the other
     * gets 409 complaint_handled. The action itself (a warning, a photo removed, a suspension),
     * the statements and the audit entry commit together or not at all.
     */
    async act(staff: StaffView, id: number, input: ComplaintActionInput, ip: string) {
      const decision = decisionOf(input.action);
      const reason = input.reason as ComplaintDecisionReason | undefined;
      if (decision && (!reason || !reasonFits(input.action, reason))) throw needsReason();
      const done = await db.transaction().execute(async (trx) => {
        const row = await requireComplaint(trx, staff, id);
        if (!canAct(row.status, input.action)) throw handledAlready();
        const reported = row.reported_profile_id === null ? undefined : await trx.selectFrom('profiles').select(['id', 'user_id', 'tenant_id']).where('id', '=', row.reported_profile_id).executeTakeFirst();
        const memberId = reported?.user_id ?? null;
        if (needsMember(input.action) && (!reported || (input.action !== 'remove_photo' && memberId === null))) throw new AppError('complaint_no_member', 400, { field: 'action' });
        // A member of another brand of the pool is their own brand's to warn, strip of a photo or suspend (issue 24).
        if (needsMember(input.action) && reported && !inScope(staff, reported.tenant_id)) {
          throw new AppError('complaint_other_brand', 403, { field: 'action', params: { brand: tenantOf(reported.tenant_id)?.name ?? reported.tenant_id } });
        }
        if (input.action === 'remove_photo') {
          if (input.photo_id === undefined) throw new AppError('complaint_photo', 400, { field: 'photo_id' });
          if (!(await removePhoto(trx, { photoId: input.photo_id, profileId: reported!.id, reason: photoReasonOf(reason!), staffId: staff.id }))) throw new AppError('complaint_photo', 400, { field: 'photo_id' });
        }
        const suspended = input.action === 'suspend' ? await suspendMember(trx, memberId!) : false;
        const now = nowIso();
        const updated = await trx
          .updateTable('complaints')
          .set(decision ? { status: 'handled', decision, decision_reason: reason!, decided_at: now, decided_by: staff.id } : { status: 'in_review', reviewed_at: now, reviewed_by: staff.id })
          .where('id', '=', row.id)
          .where('status', '=', row.status)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw handledAlready();
        // The reporter hears every decision; the member concerned when something was done to them.
        // Each on their own brand (the reported member may be of another brand of the pool): its page and its mail.
        const statements: Statement[] = [];
        if (decision) {
          statements.push({ userId: row.reporter_user_id, brand: row.tenant_id, party: 'reporter', decision, reason: reason! });
          if (decision !== 'dismissed' && memberId !== null) statements.push({ userId: memberId, brand: reported!.tenant_id, party: 'reported', decision, reason: reason! });
          await trx
            .insertInto('statements')
            .values(statements.map((s) => ({ tenant_id: s.brand, user_id: s.userId, complaint_id: row.id, party: s.party, decision: s.decision, reason: s.reason, created_at: now })))
            .execute();
        }
        await audit(trx, {
          staff,
          action: `complaint_${input.action}`,
          brand: auditBrand(staff, row),
          object: { type: 'complaint', id: row.id },
          reason: reason ?? null,
          ip,
          details: { member_id: memberId, ...(input.photo_id !== undefined ? { photo_id: input.photo_id } : {}), ...(input.note ? { note: input.note } : {}) },
        });
        return { row, statements, memberId, suspended };
      });
      if (input.action === 'remove_photo') await deps.syncPublic?.([input.photo_id!]);
      await afterDecision(done.row, done.statements);
      if (done.suspended) await announceSuspension(bus, done.memberId!).catch((error: Error) => log(`suspension event: ${error.message}`));
      if (input.action === 'remove_photo' && done.memberId !== null) {
        await publishToMember(bus, done.memberId, { type: 'photos', photo_id: input.photo_id! }).catch((error: Error) => log(`photos event: ${error.message}`));
      }
      return { id: done.row.id, status: decision ? ('handled' as const) : ('in_review' as const), decision, decision_reason: reason ?? null };
    },

    /** GET /api/statements.php: the member's statements of decisions, newest first, in their language. */
    async statements(tenant: Tenant, userId: number, locale: string): Promise<StatementView[]> {
      const rows = await db.selectFrom('statements').selectAll().where('user_id', '=', userId).where('tenant_id', '=', tenant.id).orderBy('id', 'desc').limit(STATEMENTS_SHOWN).execute();
      return rows.map((r) => ({
        id: r.id,
        complaint_id: r.complaint_id,
        party: r.party,
        decision: r.decision,
        reason: r.reason,
        created_at: r.created_at,
        text: statementText(r, locale, tenant, 'page'),
      }));
    },
  };
}

export type ComplaintService = ReturnType<typeof createComplaintService>;
