import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import {
  DEFAULT_LEAD_TEXT,
  DEFAULT_PRIVACY_POLICY_LINK,
  flagSchema,
  type LeadParams,
} from '../events/event-settings.ts';
import { keyBody } from '../events/events.ts';
import { emailSchema } from '../../rules/identity.ts';
import { idSchema } from '../identity/users.ts';

/**
 * Leads (owner-console §3 `collect_leads`, `lead_params`): a guest gives name and
 * e-mail (company, phone and agreement as `lead_params` say) before an album of the event opens.
 */

/** The consent text a guest reads: the event's text or the default, and the policy link. */
export const leadConsentText = (
  params: Pick<LeadParams, 'please_read_text' | 'privacy_policy_link'>,
) => ({
  text: params.please_read_text.trim() || DEFAULT_LEAD_TEXT,
  link: params.privacy_policy_link.trim() || DEFAULT_PRIVACY_POLICY_LINK,
});

/**
 * The version of the consent text (FNV-1a of text and link, 8 hex digits): the page sends the one
 * it showed; the server refuses an agreement to a text that has changed since.
 */
export const leadConsentVersion = (
  params: Pick<LeadParams, 'please_read_text' | 'privacy_policy_link'>,
): string => {
  const { text, link } = leadConsentText(params);
  let hash = 0x811c9dc5;
  for (const ch of `${text}\n${link}`) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
};

const leadText = (max: number) =>
  z.string({ error: 'invalid_value' }).trim().max(max, 'invalid_value');

export const leadSchema = z.object({
  id: z.number().int(),
  full_name: z.string(),
  email: z.string(),
  company_name: z.string().nullable(),
  phone: z.string().nullable(),
  source: z.string().describe('The key type of the page the guest came through'),
  consent_version: z.string().nullable(),
  consent_text: z.string().nullable(),
  consented_date: z.string().nullable(),
  created_date: z.string(),
  updated_date: z.string(),
});
export type Lead = z.infer<typeof leadSchema>;

export const leadSubmit = defineEndpoint({
  path: '/lead/create',
  auth: 'key',
  tag: 'leads',
  summary:
    'A guest’s lead before the album opens (events with collect_leads on): name and e-mail, company, phone and consent as lead_params say. One lead per event and e-mail; a repeat updates it',
  body: z.object({
    ...keyBody,
    full_name: leadText(200).min(1, 'full_name_required'),
    email: emailSchema,
    company_name: leadText(200).optional(),
    phone: leadText(40).optional(),
    consent: flagSchema.optional(),
    consent_version: z.string().max(40, 'invalid_value').optional(),
  }),
  result: z.object({
    lead_id: z.number().int(),
    lead_token: z
      .string()
      .describe(
        'Send it as lead_token with the album calls (photo list, download) of this event’s public and private keys',
      ),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'leads_not_collected',
    'full_name_required',
    'email_invalid',
    'company_required',
    'phone_invalid',
    'consent_required',
    'consent_outdated',
  ],
});

export const leadList = defineEndpoint({
  path: `${OWNER_PREFIX}/lead/list/retrieve`,
  auth: 'owner',
  tag: 'leads',
  summary: 'An event’s leads, newest first, with their consent (text version and time)',
  body: z.object({ event_id: idSchema }),
  result: z.object({ leads: z.array(leadSchema) }),
  errors: ['event_not_found'],
});

export const leadExport = defineEndpoint({
  path: `${OWNER_PREFIX}/lead/export`,
  auth: 'owner',
  tag: 'leads',
  summary:
    'An event’s leads as CSV (RFC 4180; a cell starting with = + - @, tab or carriage return is prefixed with an apostrophe so spreadsheets never run it)',
  body: z.object({ event_id: idSchema }),
  result: z.object({ file_name: z.string(), csv: z.string() }),
  errors: ['event_not_found'],
});

export const leadDelete = defineEndpoint({
  path: `${OWNER_PREFIX}/lead/delete`,
  auth: 'owner',
  tag: 'leads',
  summary: 'Deletes leads of an event (on the guest’s request); ids of other events change nothing',
  body: z.object({
    event_id: idSchema,
    lead_id_array: z
      .array(idSchema, { error: 'invalid_value' })
      .min(1, 'invalid_value')
      .max(1000, 'invalid_value'),
  }),
  result: z.object({ deleted: z.number().int() }),
  errors: ['event_not_found', 'not_found'],
});
