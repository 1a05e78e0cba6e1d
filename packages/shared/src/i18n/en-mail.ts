/**
 * English texts of the product's own words in mails and text messages (the operator's templates
 * are their own text: `opts.textTranslations` gives them per language). i18next form: `{{name}}`
 * placeholders, `_one`/`_other` plurals (other languages add the forms theirs has). Default
 * bodies use the templates' own `{user_name}` placeholder (one brace), filled by the renderer.
 */
export const enMail = {
  defaultSubject: 'Your photo from Flashbulb',
  album: {
    headingNoCount: 'Your album is ready',
    heading_one: 'Your photo is ready',
    heading_other: 'Your {{count}} photos are ready',
    bodyNoCount:
      '<p>Hi {user_name},</p><p>Your album is ready. New photos appear in it as they are taken.</p>',
    body_one: '<p>Hi {user_name},</p><p>Your photo is ready in your album.</p>',
    body_other: '<p>Hi {user_name},</p><p>Your {{count}} photos are ready in your album.</p>',
    actionNoCount: 'Open the album',
    action_one: 'View the photo',
    action_other: 'View {{count}} photos',
  },
  share: {
    headingNoCount: 'Photos from {{title}}',
    heading_one: 'A photo from {{title}}',
    heading_other: '{{count}} photos from {{title}}',
    bodyNoCount: '<p>Hi {user_name},</p><p>Photos were shared with you.</p>',
    body_one:
      '<p>Hi {user_name},</p><p>A photo was shared with you. Open it to view and download it.</p>',
    body_other:
      '<p>Hi {user_name},</p><p>{{count}} photos were shared with you. Open them to view and download them.</p>',
  },
  receipt: {
    subject: 'Your receipt: {{title}}',
    heading: 'Thank you for your purchase',
    body: '<p>Hi {user_name}, thank you for your purchase.</p>',
    action: 'Open your album',
  },
  /** Shopify's invoice mail of a kiosk sale (its subject and message). */
  shopReceipt: {
    subject: 'Your photos: {{title}}',
    message: 'Thank you for your order.',
  },
  frame: {
    photoAlt: 'Photo {{number}}',
    more: '+ {{count}} more',
    unsubscribe: 'Unsubscribe',
  },
  sms: {
    stop: 'Stop: {{url}}',
  },
};
