import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { flagOutput } from '../events/event-settings.ts';
import { idSchema } from '../identity/users.ts';

/**
 * Print and watermark templates ("ppt"; albums spec §2.6, §7.4): a sheet (size in
 * inches or millimetres, and the printer's DPI) with placeholders where photos go, background
 * and overlay images and text fields. Positions are fractions of the sheet (0..1) so a template
 * renders at any resolution; a 4×6 at 300 dpi is 1800×1200 pixels.
 */

export const pptItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  organisation_id: z.number().int().nullable(),
  organisation_name: z.string().nullable(),
  placeholder_counts: z.number().int(),
  is_public: z.boolean(),
  created_date: z.string(),
  updated_date: z.string(),
});

export const pptList = defineEndpoint({
  path: `${OWNER_PREFIX}/ppt/list/retrieve`,
  auth: 'owner',
  tag: 'templates',
  summary: 'Print or watermark templates: public ones and the organisation’s private ones',
  body: z.object({
    organisation_id: idSchema.optional(),
    is_watermark: flagOutput.or(z.boolean()).optional(),
  }),
  result: z.object({
    public_ppt_list: z.array(pptItemSchema),
    private_ppt_list: z.array(pptItemSchema),
  }),
  errors: ['forbidden'],
});

export const deletePpt = defineEndpoint({
  path: `${OWNER_PREFIX}/ppt/delete`,
  auth: 'owner',
  tag: 'templates',
  summary: 'Delete a template (public ones: super users only; private ones: their organisation)',
  body: z.object({ id: idSchema }),
  result: z.object({}),
  errors: ['forbidden', 'template_not_found'],
});

export const TEMPLATE_MAX_PLACEHOLDERS = 20;
export const TEMPLATE_MAX_TEXTS = 10;
export const TEMPLATE_MIN_DPI = 72;
export const TEMPLATE_MAX_DPI = 1200;
/** A sheet is at most 24 inches (610 mm) on a side and at least 1 inch (25.4 mm). */
export const TEMPLATE_MAX_INCHES = 24;
export const TEMPLATE_MIN_INCHES = 1;

const fraction = z.number({ error: 'template_layout_invalid' }).min(0).max(1);
const size = z.number({ error: 'template_layout_invalid' }).gt(0).max(1);

export const templatePlaceholderSchema = z
  .object({
    x: fraction,
    y: fraction,
    width: size,
    height: size,
    /** Degrees clockwise around the placeholder's centre. */
    rotation: z.number({ error: 'template_layout_invalid' }).min(-360).max(360).default(0),
  })
  .refine((p) => p.x + p.width <= 1.0001 && p.y + p.height <= 1.0001, 'template_layout_invalid');
export type TemplatePlaceholder = z.infer<typeof templatePlaceholderSchema>;

/** The event texts a template's text field can be a slot for. */
export const TEMPLATE_TEXT_SLOTS = ['header', 'footer'] as const;
export type TemplateTextSlot = (typeof TEMPLATE_TEXT_SLOTS)[number];

export const templateTextSchema = z.object({
  text: z.string({ error: 'template_layout_invalid' }).max(200, 'template_layout_invalid'),
  /** Left edge and baseline, fractions of the sheet. */
  x: fraction,
  y: fraction,
  /** Font size as a fraction of the sheet's height. */
  size: z.number({ error: 'template_layout_invalid' }).gt(0).max(0.5),
  color: z
    .string({ error: 'template_layout_invalid' })
    .regex(/^#[0-9a-fA-F]{6}$/, 'template_layout_invalid')
    .default('#000000'),
  /**
   * A slot the printing event fills: its print header or footer message (`opts.printHeaderMessage`,
   * `opts.printFooterMessage`) is printed here instead of `text`; an event without one prints
   * `text`. Absent: the text as written.
   */
  slot: z.enum(TEMPLATE_TEXT_SLOTS, { error: 'template_layout_invalid' }).optional(),
});
export type TemplateText = z.infer<typeof templateTextSchema>;

/** A storage key of an image the organisation uploaded to its `watermarks/` folder. */
const imageKey = z
  .string({ error: 'template_image_invalid' })
  .max(600, 'template_image_invalid')
  .regex(/^share\/\d+\/watermarks\/[^\s]+\.(jpe?g|png)$/i, 'template_image_invalid')
  .nullable()
  .default(null);

export const templateLayoutSchema = z
  .object({
    width: z.number({ error: 'template_layout_invalid' }).positive('template_layout_invalid'),
    height: z.number({ error: 'template_layout_invalid' }).positive('template_layout_invalid'),
    unit: z.enum(['in', 'mm'], { error: 'template_layout_invalid' }).default('in'),
    dpi: z
      .number({ error: 'template_layout_invalid' })
      .int('template_layout_invalid')
      .min(TEMPLATE_MIN_DPI, 'template_layout_invalid')
      .max(TEMPLATE_MAX_DPI, 'template_layout_invalid')
      .default(300),
    placeholders: z
      .array(templatePlaceholderSchema, { error: 'template_layout_invalid' })
      .min(1, 'template_placeholders_required')
      .max(TEMPLATE_MAX_PLACEHOLDERS, 'template_layout_invalid'),
    background_image: imageKey,
    overlay_image: imageKey,
    texts: z
      .array(templateTextSchema, { error: 'template_layout_invalid' })
      .max(TEMPLATE_MAX_TEXTS, 'template_layout_invalid')
      .default([]),
  })
  .refine((l) => {
    const factor = l.unit === 'mm' ? 1 / 25.4 : 1;
    return [l.width, l.height].every(
      (v) => v * factor >= TEMPLATE_MIN_INCHES && v * factor <= TEMPLATE_MAX_INCHES,
    );
  }, 'template_layout_invalid');
export type TemplateLayout = z.infer<typeof templateLayoutSchema>;

/** A sheet's size in inches. */
export const layoutInches = (l: Pick<TemplateLayout, 'width' | 'height' | 'unit'>) => {
  const factor = l.unit === 'mm' ? 1 / 25.4 : 1;
  return { width: l.width * factor, height: l.height * factor };
};

/** A sheet's size in pixels at its DPI (a 6×4 inch sheet at 300 dpi: 1800×1200). */
export const layoutPixels = (l: Pick<TemplateLayout, 'width' | 'height' | 'unit' | 'dpi'>) => {
  const inches = layoutInches(l);
  return { width: Math.round(inches.width * l.dpi), height: Math.round(inches.height * l.dpi) };
};

/** A 4×6 landscape sheet at 300 dpi with one full-sheet placeholder: the editor's starting point. */
export const defaultTemplateLayout = (): TemplateLayout => ({
  width: 6,
  height: 4,
  unit: 'in',
  dpi: 300,
  placeholders: [{ x: 0, y: 0, width: 1, height: 1, rotation: 0 }],
  background_image: null,
  overlay_image: null,
  texts: [],
});

const templateName = z
  .string({ error: 'template_name_required' })
  .trim()
  .min(1, 'template_name_required')
  .max(100, 'template_name_required');

export const pptDetailSchema = pptItemSchema.extend({
  is_watermark: z.boolean(),
  layout: templateLayoutSchema,
  /** Where the editor and preview read the template's images (public share URLs). */
  image_urls: z.object({
    background_image: z.string().nullable(),
    overlay_image: z.string().nullable(),
  }),
});
export type PptDetail = z.infer<typeof pptDetailSchema>;

const templateErrors = [
  'forbidden',
  'organisation_not_found',
  'template_name_required',
  'template_layout_invalid',
  'template_placeholders_required',
  'template_image_invalid',
] as const;

export const pptCreate = defineEndpoint({
  path: `${OWNER_PREFIX}/ppt/create`,
  auth: 'owner',
  tag: 'templates',
  summary:
    'Create a print or watermark template: public (`is_public`, super users only) or private to an organisation (its admins)',
  body: z.object({
    name: templateName,
    is_watermark: z.boolean().default(false),
    is_public: z.boolean().default(false),
    organisation_id: idSchema.optional().describe('Super users: whose private template'),
    layout: templateLayoutSchema,
  }),
  result: pptDetailSchema,
  errors: [...templateErrors],
});

export const pptUpdate = defineEndpoint({
  path: `${OWNER_PREFIX}/ppt/update`,
  auth: 'owner',
  tag: 'templates',
  summary:
    'Change a template’s name and sheet (public ones: super users only; private ones: their organisation’s admins)',
  body: z.object({ id: idSchema, name: templateName, layout: templateLayoutSchema }),
  result: pptDetailSchema,
  errors: [...templateErrors, 'template_not_found'],
});

export const pptRetrieve = defineEndpoint({
  path: `${OWNER_PREFIX}/ppt/retrieve`,
  auth: 'owner',
  tag: 'templates',
  summary: 'One template with its sheet, for the editor and the preview',
  body: z.object({ id: idSchema }),
  result: pptDetailSchema,
  errors: ['template_not_found'],
});
