/** Texts every page uses (guest pages and the console), in their own module so guest pages load
 * only these and their own (the album's first load stays small). */
export const enApp = {
  name: 'Flashbulb',
  loading: 'Loading…',
};

export const enCommon = {
  email: 'E-mail',
  password: 'Password',
  confirmPassword: 'Confirm password',
  newPassword: 'New password',
  code: 'Code',
  cancel: 'Cancel',
  backToSignIn: 'Back to sign-in',
};

/** Client-side validation keys not in the shared catalogue (they never travel over the wire). */
export const enWebErrors = {
  // Sign-in failures show the catalogue's text, the spec's "User Name or Password is incorrect".
  passwords_do_not_match: 'The passwords do not match',
  organisation_required: 'Choose an organisation',
  date_time_format_invalid: 'Use the format YYYY-MM-DD HH:mm',
};
