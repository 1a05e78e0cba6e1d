export * from './errors.ts';
export * from './api/envelope.ts';
export * from './api/endpoint.ts';
export * from './api/identity/auth.ts';
export * from './api/identity/users.ts';
export * from './api/index.ts';
export * from './rules/identity.ts';
export * from './rules/common-passwords.ts';
export * from './i18n/en.ts';
export * from './api/events/event-settings.ts';
export * from './api/events/events.ts';
export * from './api/events/robots.ts';
export * from './api/events/stock-images.ts';
export * from './api/events/share-bucket.ts';
export * from './rules/event-rules.ts';
export * from './rules/event-time.ts';
export * from './rules/text-rules.ts';
export * from './api/photos/photos.ts';
export * from './api/photos/moderation.ts';
export * from './api/albums/albums.ts';
export * from './rules/media-rules.ts';
export * from './rules/page-type.ts';
export * from './rules/guest-boot.ts';
export * from './rules/attendee-id.ts';
export * from './api/attendees/attendees.ts';
export * from './api/attendees/kiosk.ts';
export * from './api/faces/faces.ts';
export * from './api/faces/ignored-faces.ts';
export * from './api/printing/printing.ts';
export * from './api/printing/print-templates.ts';
export * from './api/printing/image-processes.ts';
export * from './api/payments/pass-codes.ts';
export * from './client/contract-client.ts';
export * from './client/paths.ts';
export * from './rules/price-formula.ts';
export * from './rules/currency.ts';
export * from './rules/pricing-buttons.ts';
export * from './rules/payment-state.ts';
export * from './api/input-rules.ts';
export * from './rules/kiosk.ts';
export * from './rules/stock-images.ts';
export * from './rules/email-ends.ts';
export * from './api/messaging/messages.ts';
export * from './api/albums/webapp.ts';
export * from './api/attendees/leads.ts';
export * from './api/attendees/favourites.ts';
export * from './api/attendees/privacy.ts';
export {
  CONNECTION_PROVIDERS,
  type ConnectionProvider,
  type PaymentConnection,
  type CardReader,
} from './api/payments/providers.ts';
export {
  webhookList,
  webhookCreate,
  webhookSetEnabled,
  webhookDelete,
  webhookDeliveries,
  webhookReplay,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookEventType,
  type WebhookEndpoint,
  type WebhookDelivery,
} from './api/operations/webhooks.ts';
export {
  backupCreate,
  backupList,
  backupRestore,
  backupScheduleGet,
  backupScheduleSet,
  backupScheduleSchema,
  BACKUP_EVERY_HOURS_MAX,
  BACKUP_KEEP_MAX,
  integrityCheck,
  integrityRepair,
  integrityReports,
  INTEGRITY_PROBLEMS,
  INTEGRITY_ACTIONS,
  type BackupResult,
  type BackupSummary,
  type BackupSchedule,
  type BackupRun,
  type BackupScheduleState,
  type IntegrityReportSummary,
  type IntegrityProblem,
  type IntegrityProblemKind,
  type IntegrityAction,
  type IntegrityReport,
} from './api/operations/maintenance.ts';
export * from './rules/instant-code.ts';
