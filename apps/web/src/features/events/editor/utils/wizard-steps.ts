import type { RuleIssue } from '@flashbulb/shared';

/** The new-event steps: name and date → look → delivery → booths (then "Create event"). */
export const WIZARD_STEPS = ['basics', 'look', 'delivery', 'booths'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** The settings each step edits (a path or a parent of paths); everything else is "Advanced". */
const STEP_FIELDS: Record<WizardStep, readonly string[]> = {
  basics: [
    'organisation_id',
    'full_name',
    'opts.description',
    'empty_album_text',
    'time_zone',
    'date_utc_diff_hours',
  ],
  look: [
    'logo_full_path',
    'logo_link',
    'opts.guestAccentColor',
    'photo_watermark',
    'live_view_watermark',
  ],
  delivery: [
    'email_from_address',
    'email_from_name',
    'email_subject',
    'is_sms_enabled',
    'sms_body_template',
    'collect_leads',
    'lead_params',
  ],
  booths: ['robot_id_array'],
};

/** The step that edits a field path, or null for a setting only the full editor shows. */
export const stepOfField = (field: string): WizardStep | null => {
  for (const step of WIZARD_STEPS)
    if (STEP_FIELDS[step].some((path) => field === path || field.startsWith(`${path}.`)))
      return step;
  return null;
};

/** The problems a step holds (checked before Next). */
export const issuesOfStep = (issues: readonly RuleIssue[], step: WizardStep): RuleIssue[] =>
  issues.filter((issue) => stepOfField(issue.field) === step);

/** The first step holding a problem, or null when every problem is in "Advanced" (or none). */
export const firstStepWithIssue = (issues: readonly RuleIssue[]): WizardStep | null => {
  for (const step of WIZARD_STEPS) if (issuesOfStep(issues, step).length > 0) return step;
  return null;
};
