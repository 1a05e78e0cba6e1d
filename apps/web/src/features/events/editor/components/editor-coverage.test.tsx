import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  defaultEventOpts,
  eventSettingsShape,
  leadParamsSchema,
  SECURE_FIELDS,
  shopifyShippingAddressSchema,
} from '@flashbulb/shared';
import { installConsoleApi, superUser } from '../../../../test/event-fixtures.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { EDITOR_TABS } from '../utils/editor-tabs.ts';

/** Edited by widgets that are not one named input (tables, forms, or a flag mirrored on save). */
const EDITED_OTHERWISE = new Set([
  'opts',
  'notification_data',
  'lead_params',
  'shopify_shipping_address',
  'secret_code_list',
  'opts.stockImages',
  'opts.pricingButtons',
  'opts.stockImagesEnable',
  // One text box per setting and language (language-fields.tsx).
  'opts.textTranslations',
]);

describe('event editor coverage', { timeout: 60_000 }, () => {
  it('has a named input for every setting, opts key, lead param, address field and secure field', async () => {
    installConsoleApi({ user: superUser });
    renderApp('/events#ename=ABCD');
    const dialog = await screen.findByRole('dialog', { name: 'Edit event Summer Gala' });
    await within(dialog).findByLabelText(/^Title/);
    const user = userEvent.setup();
    const names = new Set<string>();
    const tabs = within(dialog).getAllByRole('tab');
    expect(tabs).toHaveLength(EDITOR_TABS.length);
    for (const tab of tabs) {
      await user.click(tab);
      for (const element of dialog.querySelectorAll('[name]'))
        names.add(element.getAttribute('name') ?? '');
    }
    const wanted = [
      ...Object.keys(eventSettingsShape),
      ...Object.keys(defaultEventOpts()).map((key) => `opts.${key}`),
      ...Object.keys(leadParamsSchema.shape).map((key) => `lead_params.${key}`),
      ...Object.keys(shopifyShippingAddressSchema.shape).map(
        (key) => `shopify_shipping_address.${key}`,
      ),
      ...SECURE_FIELDS.map((field) => `secure.${field}`),
    ].filter((name) => !EDITED_OTHERWISE.has(name));
    expect(wanted.filter((name) => !names.has(name))).toEqual([]);
  });
});
