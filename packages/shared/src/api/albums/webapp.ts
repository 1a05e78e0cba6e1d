import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import { flagSchema } from '../events/event-settings.ts';
import { GUEST_LANGUAGES } from '../../i18n/languages.ts';

/** A branding image of the web-app page with its optional link (albums spec §2.6 web-app tab). */
const webappImage = z.object({ src: z.string(), link: z.string() }).nullable();

/**
 * What the web-app page (`/?eName=<code>[&token=…]`, albums spec §2.1) shows of an event: only
 * the event's guest-facing branding and texts, no keys and no settings beyond these.
 */
export const webappEventSchema = z.object({
  name: z.string(),
  full_name: z.string(),
  description: z.string(),
  logo_full_path: z.string().nullable(),
  logo_link: z.string(),
  logo: webappImage,
  background: webappImage,
  banner_top: webappImage,
  banner_bottom: webappImage,
  share_title: z.string(),
  og_title: z.string(),
  og_description: z.string(),
  faq_text: z.string(),
  agreement_text: z.string(),
  support_link: z.string(),
  registration_type: z.enum(['default', 'byIdFirst']),
  redirect_to_webapp: z.boolean(),
  sms_enabled: z.boolean().describe('The SMS invite is offered (web-app SMS and event SMS on)'),
  sms_agreement: z.string(),
  email_ends: z
    .array(z.string())
    .default([])
    .describe('The e-mail endings the e-mail field offers to complete an address with'),
  accent_color: z
    .string()
    .default('')
    .describe(
      'The event’s brand colour (`opts.guestAccentColor`, `#rrggbb`; empty: the standard one)',
    ),
  show_event_label: z
    .boolean()
    .default(true)
    .describe('The event’s name is shown as the page’s title (off: `disableEventLabel`)'),
  collect_email: z
    .boolean()
    .default(true)
    .describe(
      'Registration by card id (`byIdFirst`) also asks for an e-mail address (`enableEmailCollect`); registration by e-mail always does',
    ),
  link_photos: z
    .boolean()
    .default(true)
    .describe('A photo on the page opens in the viewer (off: `disableLinkPhotos`)'),
  picture_size: z
    .number()
    .int()
    .positive()
    .default(250)
    .describe('The height in CSS pixels of a row of photos on the page (`pictureSize`)'),
  time_in_time_text: z
    .string()
    .default('')
    .describe('When photos reach the page, in the organiser’s words (`timeInTimeText`)'),
  user_content: z
    .object({
      tooltip: z.string(),
      upload_message: z.string(),
      process_message: z.string(),
    })
    .default({ tooltip: '', upload_message: '', process_message: '' })
    .describe(
      'The texts around the guest’s own picture (the selfie of "Find me"): the hint by its buttons, while it uploads, while it is searched',
    ),
  support_chat_url: z
    .string()
    .default('')
    .describe(
      'The support chat the page’s "Chat with us" launcher opens in a new tab (`supportChatKey`, an https link); empty: no launcher',
    ),
  guest_language: z
    .enum(GUEST_LANGUAGES)
    .default('en')
    .describe('The event’s language for guests (opts.guestLanguage)'),
  guest_language_auto: z
    .boolean()
    .default(true)
    .describe('The guest’s browser language wins when the event has it (opts.guestLanguageAuto)'),
  text_translations: z
    .record(z.string(), z.record(z.string(), z.string()))
    .default({})
    .describe('The FAQ and terms per language: { faqText: { es: "…" }, agreementText: { … } }'),
});
export type WebappEvent = z.infer<typeof webappEventSchema>;

export const webappEvent = defineEndpoint({
  path: '/webapp/event/retrieve',
  auth: 'none',
  tag: 'web app',
  summary: 'The web-app page of an event by its code (`eName`): branding, texts, registration type',
  body: z.object({
    event_name: z.string().trim().min(1, 'event_not_found').max(40, 'event_not_found'),
  }),
  result: webappEventSchema,
  errors: ['event_not_found'],
});

export const webappRegister = defineEndpoint({
  path: '/webapp/register',
  auth: 'none',
  tag: 'web app',
  summary:
    'Web-app registration: finds the guest’s attendee album (by attendee id, or by e-mail within the event) or creates one, mails the album link (and the SMS invite when asked and agreed); answers the album link',
  body: z.object({
    event_name: z.string().trim().min(1, 'event_not_found').max(40, 'event_not_found'),
    email: z.string().trim().max(254, 'email_invalid').default(''),
    name: z.string().trim().max(200, 'invalid_value').default(''),
    attendee_uid: z
      .string()
      .trim()
      .max(40, 'invalid_attendee_id')
      .default('')
      .describe('The id on the guest’s card; required when registration_type is byIdFirst'),
    phone: z
      .string()
      .trim()
      .max(40, 'phone_invalid')
      .default('')
      .describe('US number for the SMS invite'),
    sms_agreement: flagSchema.default(0).describe('The guest accepted the SMS agreement'),
  }),
  result: z.object({
    attendee_uid: z.string(),
    album_url: z.string(),
    created: z.boolean(),
    emailed: z.boolean(),
    sms_sent: z.boolean(),
  }),
  errors: [
    'event_not_found',
    'email_invalid',
    'invalid_attendee_id',
    'attendee_locked',
    'phone_invalid',
    'consent_required',
    'sms_not_enabled',
    'email_not_collected',
    'too_many_requests',
  ],
  rateLimited: true,
});
