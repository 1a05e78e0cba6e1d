import type { SignalEmitter } from '../../signals/signal-bus.ts';
import {
  isValidUsPhone,
  leadConsentText,
  leadConsentVersion,
  normalisePhone,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import { timingSafeEqual } from 'node:crypto';
import type { AccessControl } from '../../access/access-control.ts';
import { leadGatedEvent } from '../../access/lead-gate.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import { leadForOwner } from '../../presenters/attendee.presenter.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LeadRepository } from '../../repositories/attendees/lead.repository.ts';
import { displayTokenOf } from '../events/event-settings.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a cell a spreadsheet
 * would read as a formula (starting with = + - @, tab or carriage return) gets a leading
 * apostrophe first, so an exported lead never runs anything when opened.
 */
export const csvCell = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const LEAD_COLUMNS = [
  'name',
  'email',
  'company',
  'phone',
  'source',
  'consent version',
  'consent text',
  'consented (UTC)',
  'created (UTC)',
] as const;

/**
 * Leads: the album gate of events with `collect_leads` on stores what the guest
 * gave and the consent they agreed to; those who manage the event list, export and delete them.
 */
export class LeadService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      rows: LeadRepository;
      clock: Clock;
      /** Signs the lead token the album calls carry and checks the event's display token. */
      secrets: Pick<SecretBox, 'hmac'>;
      bus?: SignalEmitter;
    },
  ) {}

  private sign(eventId: number, leadId: number): string {
    return this.deps.secrets.hmac(`lead-gate:${eventId}:${leadId}`);
  }

  /** `<lead id>.<signature>`: names a lead of one event, and only that event. */
  private tokenFor(eventId: number, leadId: number): string {
    return `${leadId}.${this.sign(eventId, leadId)}`;
  }

  /**
   * The lead gate on the server: when the key's event collects leads, its public
   * and private keys' album calls need the token of a lead of that event that still exists
   * (deleted on request: asked again). Operators, event-owner, attendee and robot keys are not
   * asked, nor the organiser's display screens — by the event's display token (`display`), which
   * only those who manage the event see; anything else there (a guest's `display=1`) is no token.
   * Answers quietly when it holds, else `lead_required` (changes nothing).
   */
  async requireLead(
    principal: Principal,
    body: { lead_token?: string | undefined; display?: string | undefined },
  ): Promise<void> {
    const gated = leadGatedEvent(principal);
    if (!gated) return;
    const eventId = gated.row.id;
    if (body.display !== undefined && body.display !== '') {
      const want = Buffer.from(displayTokenOf(this.deps.secrets, eventId));
      const got = Buffer.from(body.display);
      if (want.length === got.length && timingSafeEqual(want, got)) return;
    }
    const [idText, signature, extra] = (body.lead_token ?? '').split('.');
    const leadId = Number(idText);
    const ok =
      extra === undefined &&
      signature !== undefined &&
      /^[1-9]\d{0,15}$/.test(idText ?? '') &&
      Number.isSafeInteger(leadId) &&
      (() => {
        const want = Buffer.from(this.sign(eventId, leadId));
        const got = Buffer.from(signature);
        return want.length === got.length && timingSafeEqual(want, got);
      })() &&
      (await this.deps.rows.exists(eventId, leadId));
    if (!ok) throw new AppError('lead_required', 'lead_token');
  }

  async submit(
    principal: Principal,
    input: KeylessBody<'leadSubmit'>,
  ): Promise<{ lead_id: number; lead_token: string }> {
    const { event, keyType } = await this.deps.access.requireEventAccess(principal, 'photo.list', {
      keyEvent: true,
    });
    const row = event.row;
    if (row.collect_leads !== 1) throw new AppError('leads_not_collected');
    const params = row.lead_params;
    const company = input.company_name?.trim() || null;
    const phoneText = input.phone?.trim() || null;
    if (params.show_company_input_text === 1 && !company)
      throw new AppError('company_required', 'company_name');
    if (phoneText && !isValidUsPhone(phoneText)) throw new AppError('phone_invalid', 'phone');
    if (params.show_phone_input_text === 1 && !phoneText)
      throw new AppError('phone_invalid', 'phone');
    // The agreement: given, and to the text the event shows now.
    let consent: { version: string; text: string; at: Date } | null = null;
    if (params.show_agree_checkbox === 1) {
      if (input.consent !== 1) throw new AppError('consent_required', 'consent');
      const current = leadConsentVersion(params);
      if (input.consent_version !== current)
        throw new AppError('consent_outdated', 'consent_version');
      const shown = leadConsentText(params);
      consent = {
        version: current,
        text: `${shown.text} ${shown.link}`,
        at: this.deps.clock.now(),
      };
    }
    const saved = await this.deps.rows.upsert(
      {
        eventId: row.id,
        fullName: input.full_name,
        email: input.email,
        // Only what the event asks for is kept.
        companyName: params.show_company_input_text === 1 ? company : null,
        phone: params.show_phone_input_text === 1 && phoneText ? normalisePhone(phoneText) : null,
        source: keyType ?? 'key',
        consentVersion: consent?.version ?? null,
        consentText: consent?.text ?? null,
        consentedAt: consent?.at ?? null,
      },
      this.deps.clock.now(),
    );
    await this.deps.bus?.emit('lead.created', { leadId: saved.id, eventId: row.id });
    return { lead_id: saved.id, lead_token: this.tokenFor(row.id, saved.id) };
  }

  private async managed(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
      field: 'event_id',
    });
    return event;
  }

  async list(principal: Principal, input: ParsedBodyOf<Endpoints['leadList']>) {
    const event = await this.managed(principal, input.event_id);
    return { leads: (await this.deps.rows.ofEvent(event.row.id)).map(leadForOwner) };
  }

  async export(principal: Principal, input: ParsedBodyOf<Endpoints['leadExport']>) {
    const event = await this.managed(principal, input.event_id);
    const rows = await this.deps.rows.ofEvent(event.row.id);
    const lines = [
      LEAD_COLUMNS.map(csvCell).join(','),
      ...rows.map((r) =>
        [
          r.fullName,
          r.email,
          r.companyName,
          r.phone,
          r.source,
          r.consentVersion,
          r.consentText,
          r.consentedAt?.toISOString() ?? null,
          r.createdAt.toISOString(),
        ]
          .map(csvCell)
          .join(','),
      ),
    ];
    return { file_name: `leads-${event.row.name}.csv`, csv: `${lines.join('\r\n')}\r\n` };
  }

  async delete(principal: Principal, input: ParsedBodyOf<Endpoints['leadDelete']>) {
    const event = await this.managed(principal, input.event_id);
    const deleted = await this.deps.rows.delete(event.row.id, [...new Set(input.lead_id_array)]);
    if (deleted === 0) throw new AppError('not_found', 'lead_id_array');
    return { deleted };
  }
}
