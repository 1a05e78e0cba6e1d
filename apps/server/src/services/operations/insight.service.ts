import type { Endpoints, Insight, InsightTotals, ParsedBodyOf } from '@flashbulb/shared';
import type { EventClock } from '@flashbulb/shared/rules/event-time';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { organisationScope } from '../../access/rules.ts';
import { seesOrganisationInsight } from '../../access/roles.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventRepository, EventRow } from '../../repositories/events/event.repository.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type {
  InsightEventTotals,
  InsightRepository,
} from '../../repositories/operations/insight.repository.ts';
import { boothMoney, bucketTimeline, visitorHash, type BoothMoney } from './insight-rules.ts';

/** The most events one organisation's dashboard adds up (the newest). */
export const ORGANISATION_INSIGHT_MAX_EVENTS = 2000;

/** Who is asking, as the guest path knows it: only ever hashed (insight-rules.ts `visitorHash`). */
export interface InsightVisitor {
  ip: string;
  userAgent: string;
}

/**
 * Insight (docs/domains/operations.md "Insight"): counts a guest's view, download or face search
 * with one appended row, and answers the dashboards of an event and of an organisation, added up
 * from the tables that record each fact. Nothing personal is counted: a view carries only an
 * anonymous visitor hash whose salt changes every day.
 */
export class InsightService {
  private salt: { day: string; salt: Promise<string> } | null = null;

  constructor(
    private readonly deps: {
      access: AccessControl;
      rows: InsightRepository;
      events: Pick<EventRepository, 'list'>;
      organisations: Pick<OrganisationRepository, 'findById'>;
      clock: Clock;
    },
  ) {}

  /** `insightTrack`: a guest page shown or a photo (or zip) saved, by the key that reads it. */
  async track(
    principal: Principal,
    input: Pick<ParsedBodyOf<Endpoints['insightTrack']>, 'kind' | 'photo_uid'>,
    visitor: InsightVisitor,
  ): Promise<Record<string, never>> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.list', {
      keyEvent: true,
    });
    const hash =
      input.kind === 'view'
        ? visitorHash(await this.saltOfToday(), event.row.id, visitor.ip, visitor.userAgent)
        : null;
    await this.deps.rows.recordHit({
      eventId: event.row.id,
      kind: input.kind,
      photoUid: input.kind === 'download' ? (input.photo_uid ?? null) : null,
      visitor: hash,
    });
    return {};
  }

  async forEvent(principal: Principal, input: ParsedBodyOf<Endpoints['eventInsight']>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.insight', {
      eventId: input.event_id,
      field: 'event_id',
    });
    const row = event.row;
    const organisation = await this.deps.organisations.findById(row.organisationId);
    const insight = await this.insightOf([row], organisation?.currency ?? 'USD');
    return {
      ...insight.insight,
      event: { id: row.id, name: row.name, full_name: row.full_name, time_zone: row.time_zone },
    };
  }

  async forOrganisation(
    actor: SignedInUser,
    input: ParsedBodyOf<Endpoints['organisationInsight']>,
  ) {
    if (!seesOrganisationInsight(actor)) throw new AppError('forbidden');
    const scope = organisationScope(actor, input.organisation_id) ?? actor.organisationId;
    if (scope === undefined || scope === null)
      throw new AppError('organisation_not_found', 'organisation_id');
    const organisation = await this.deps.organisations.findById(scope);
    if (!organisation) throw new AppError('organisation_not_found', 'organisation_id');
    const { rows } = await this.deps.events.list(
      { organisationId: scope },
      ORGANISATION_INSIGHT_MAX_EVENTS,
      0,
    );
    const { insight, perEvent } = await this.insightOf(rows, organisation.currency);
    const byId = new Map(perEvent.map((totals) => [totals.eventId, totals]));
    return {
      ...insight,
      events: rows.map((row) => ({
        event_id: row.id,
        name: row.name,
        full_name: row.full_name,
        ...totalsOf([byId.get(row.id)].filter((t) => t !== undefined)),
      })),
    };
  }

  private async insightOf(
    events: readonly EventRow[],
    currency: string,
  ): Promise<{ insight: Insight; perEvent: InsightEventTotals[] }> {
    const ids = events.map((row) => row.id);
    const clocks = new Map<number, EventClock>(events.map((row) => [row.id, row]));
    const [perEvent, shares, boothRows, orderPhotos, slots] = await Promise.all([
      this.deps.rows.totals(ids),
      this.deps.rows.sharesByChannel(ids),
      this.deps.rows.booths(ids),
      this.deps.rows.orderPhotos(ids),
      this.deps.rows.slots(ids),
    ]);
    const timeline = bucketTimeline(
      slots,
      (eventId) => clocks.get(eventId) ?? { date_utc_diff_hours: 0 },
    );
    return {
      perEvent,
      insight: {
        currency,
        totals: totalsOf(perEvent),
        shares_by_channel: shares,
        booths: boothsWithMoney(boothRows, boothMoney(orderPhotos)),
        timeline_unit: timeline.unit,
        timeline: timeline.points,
        busiest_hours: timeline.busiestHours,
      },
    };
  }

  /** Today's salt (UTC day), asked of the database once a day per process. */
  private saltOfToday(): Promise<string> {
    const day = this.deps.clock.now().toISOString().slice(0, 10);
    if (this.salt?.day === day) return this.salt.salt;
    const salt = this.deps.rows.saltOf(day);
    this.salt = { day, salt };
    // A failed read is asked again by the next view.
    salt.catch(() => {
      if (this.salt?.salt === salt) this.salt = null;
    });
    return salt;
  }
}

type BoothRow = Awaited<ReturnType<InsightRepository['booths']>>[number];

/**
 * The booths' rows with their money; a booth that only sold (its photos in another event of the
 * organisation's dashboard, or a paid order of no booth photo) gets a row of its own.
 */
const boothsWithMoney = (
  rows: readonly BoothRow[],
  money: ReadonlyMap<number | null, BoothMoney>,
): Insight['booths'] => {
  const booths: Insight['booths'] = rows.map((booth) => ({
    robot_id: booth.robotId,
    name: booth.name,
    photos: booth.photos,
    downloads: booth.downloads,
    shares: booth.shares,
    prints: booth.prints,
    revenue: money.get(booth.robotId)?.revenue ?? 0,
    refunds: money.get(booth.robotId)?.refunds ?? 0,
  }));
  for (const [robotId, { revenue, refunds }] of money) {
    if (rows.some((booth) => booth.robotId === robotId)) continue;
    booths.push({
      robot_id: robotId,
      name: null,
      photos: 0,
      downloads: 0,
      shares: 0,
      prints: 0,
      revenue,
      refunds,
    });
  }
  return booths;
};

/** The dashboard's totals: the events' totals added up. */
export const totalsOf = (rows: readonly InsightEventTotals[]): InsightTotals => {
  const sum = (pick: (row: InsightEventTotals) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  return {
    photos: sum((r) => r.photos),
    views: sum((r) => r.views),
    unique_visitors: sum((r) => r.uniqueVisitors),
    downloads: sum((r) => r.downloads),
    shares: sum((r) => r.shares),
    leads: sum((r) => r.leads),
    mails_delivered: sum((r) => r.mailsDelivered),
    mails_bounced: sum((r) => r.mailsBounced),
    sms_delivered: sum((r) => r.smsDelivered),
    sms_bounced: sum((r) => r.smsBounced),
    prints: sum((r) => r.prints),
    orders_paid: sum((r) => r.ordersPaid),
    revenue: sum((r) => r.revenue),
    refunds: sum((r) => r.refunds),
    face_searches: sum((r) => r.faceSearches),
  };
};
