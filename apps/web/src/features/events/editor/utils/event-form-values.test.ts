import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LEAD_TEXT,
  DEFAULT_PRIVACY_POLICY_LINK,
  eventSettingsShape,
  SECURE_FIELDS,
} from '@flashbulb/shared';
import { storedEvent } from '../../../../test/event-fixtures.ts';
import { tabOfField } from './editor-tabs.ts';
import {
  copyOfValues,
  createBody,
  editorIssues,
  formValuesOf,
  settingsOfValues,
  updateBody,
} from './event-form-values.ts';

describe('event form values', () => {
  it('falls back to the default lead text and privacy link when they are empty', () => {
    const values = formValuesOf(storedEvent(), 3);
    const settings = settingsOfValues(values);
    expect(settings.lead_params.please_read_text).toBe(DEFAULT_LEAD_TEXT);
    expect(settings.lead_params.privacy_policy_link).toBe(DEFAULT_PRIVACY_POLICY_LINK);
  });

  it('drops what disabled fields hold: VIP pattern without a pattern, kiosk stream without leads', () => {
    const values = formValuesOf(storedEvent({ collect_leads: 0 }), 3);
    values.opts.attendeeIdVipRegex = '^VIP';
    values.opts.kioskStreamEnabled = 1;
    const settings = settingsOfValues(values);
    expect(settings.opts.attendeeIdVipRegex).toBe('');
    expect(settings.opts.kioskStreamEnabled).toBe(0);
  });

  it('sends only the secure fields that were typed in; create carries the organisation, update id and date', () => {
    const event = storedEvent();
    const values = formValuesOf(event, 3);
    values.secure.monobank_token = 'mono';
    values.secure.stripe_secret_key = '   ';
    const create = createBody(values);
    expect(create).toMatchObject({ organisation_id: 3, monobank_token: 'mono' });
    for (const field of SECURE_FIELDS.filter((f) => f !== 'monobank_token'))
      expect(create).not.toHaveProperty(field);
    expect(create).not.toHaveProperty('id');
    const update = updateBody(values, event);
    expect(update).toMatchObject({ id: 7, event_last_updated_date: event.updated_date });
    expect(update).not.toHaveProperty('organisation_id');
  });

  it('copies with _copy and without robots', () => {
    const copy = copyOfValues(formValuesOf(storedEvent({ robot_id_array: [1, 2] }), 3));
    expect(copy.full_name).toBe('Summer Gala_copy');
    expect(copy.robot_id_array).toEqual([]);
  });

  it('accepts a stored valid event and reports each rule with the shared key and path', () => {
    expect(editorIssues(formValuesOf(storedEvent(), 3))).toEqual([]);
    const values = formValuesOf(storedEvent({ max_print_copies_count: 21 }), 3);
    values.opts.supportLink = 'http://10.0.0.1/help';
    expect(editorIssues(values)).toEqual([
      { field: 'opts.supportLink', key: 'valid_url' },
      { field: 'max_print_copies_count', key: 'photos_copy_count_error' },
    ]);
  });

  it('knows the tab of every settings field', () => {
    expect(tabOfField('opts.supportLink')).toBe('general');
    expect(tabOfField('notification_data.topics.0.key')).toBe('notifications');
    expect(tabOfField('opts.stockImages.2.imgTmbUrl')).toBe('stockImages');
    expect(tabOfField('shopify_api_pass')).toBe('shopAddress');
    expect(tabOfField('lead_params.privacy_policy_link')).toBe('photo');
    for (const key of Object.keys(eventSettingsShape)) expect(tabOfField(key)).toBeTruthy();
  });
});
