/**
 * The error catalogue: every message key the API may answer, its HTTP status and English text.
 * The web app translates keys through i18next (see i18n/en.ts, built from this table).
 */
export const errorCatalogue = {
  // transport / generic
  'Internal Error': { status: 500, text: 'Something went wrong' },
  something_wrong: { status: 500, text: 'Something went wrong' },
  invalid_request: { status: 400, text: 'Please enter valid data' },
  invalid_value: { status: 400, text: 'Please enter valid data' },
  body_too_large: { status: 413, text: 'The request is too large' },
  not_found: { status: 404, text: 'Not found' },
  rate_limited: { status: 429, text: 'Too many requests. Please wait a moment and try again' },
  forbidden: { status: 403, text: 'You are not allowed to do this' },
  unauthorized_user: { status: 401, text: 'Your session has expired. Please log in again' },
  event_was_updated_by_another_user: {
    status: 409,
    text: 'This event was updated by another user. Reload it to see the changes?',
  },
  // identity
  user_name_or_password_incorrect: { status: 400, text: 'User Name or Password is incorrect' },
  too_many_attempts: { status: 429, text: 'Too many attempts. Please wait and try again later' },
  code_mismatch: { status: 400, text: 'The code is not correct. Please try again' },
  expired_code: { status: 400, text: 'The code has expired. Please request a new one' },
  user_exists: { status: 409, text: 'A user with this e-mail already exists' },
  invalid_password: {
    status: 400,
    text: 'Choose a password of at least 8 characters that is not a common password',
  },
  password_too_long: { status: 400, text: 'The password may have at most 256 characters' },
  temporary_password_expired: {
    status: 400,
    text: 'The temporary password has expired. Ask your administrator for a new one',
  },
  invalid_session: { status: 400, text: 'This sign-in step has expired. Please sign in again' },
  invalid_challenge: { status: 400, text: 'This sign-in step is not expected now' },
  mfa_not_set_up: { status: 400, text: 'Set up your authenticator app first' },
  email_invalid: { status: 400, text: 'Enter a valid e-mail address' },
  email_required: { status: 400, text: 'Enter your e-mail address' },
  code_required: { status: 400, text: 'Enter the 6-digit code' },
  code_format: { status: 400, text: 'The code has 6 digits' },
  password_required: { status: 400, text: 'Enter your password' },
  organisation_not_found: { status: 404, text: 'Organisation not found' },
  organisation_name_required: { status: 400, text: 'Enter the organisation name' },
  organisation_exists: { status: 409, text: 'An organisation with this name already exists' },
  role_invalid: { status: 400, text: 'Choose a valid role' },
  setup_already_done: {
    status: 409,
    text: 'Flashbulb already has an administrator. Please sign in',
  },
  api_key_not_found: { status: 404, text: 'API key not found' },
  api_key_name_required: { status: 400, text: 'Give the API key a name' },
} as const satisfies Record<string, { status: number; text: string }>;

export type ErrorKey = keyof typeof errorCatalogue;

export const isErrorKey = (value: string): value is ErrorKey =>
  Object.prototype.hasOwnProperty.call(errorCatalogue, value);

export const errorStatus = (key: ErrorKey): number => errorCatalogue[key].status;
export const errorText = (key: ErrorKey): string => errorCatalogue[key].text;
