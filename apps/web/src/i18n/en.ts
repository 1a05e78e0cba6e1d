import { enApp, enCommon, enWebErrors } from './en-common.ts';
import { enConsoleAlbum } from './en-console-album.ts';
import { enAlbums } from './en-albums.ts';
import { enAttendees } from './en-attendees.ts';
import { enEvents } from './en-events.ts';
import { enOutbox } from './en-outbox.ts';
import { enOperations } from './en-operations.ts';
import { enPrivacyLog } from './en-privacy-log.ts';
import { enWebhooks } from './en-webhooks.ts';
import { enInsight } from './en-insight.ts';
import { enLeads } from './en-leads.ts';
import { enModeration } from './en-moderation.ts';
import { enWebapp } from './en-webapp.ts';
import { enSetup } from './en-setup.ts';
import { enOrders } from './en-orders.ts';
import { enTemplates } from './en-templates.ts';
import { enPrintDesk } from './en-print-desk.ts';
import { enPayments } from './en-payments.ts';

/** English UI texts (namespace `translation`). Error texts come from the shared catalogue (namespace `errors`). */
export const en = {
  app: enApp,
  common: enCommon,
  signIn: {
    title: 'Sign in to Flashbulb',
    submit: 'Sign in',
    forgotPassword: 'Forgot password?',
    passwordResetDone: 'Your password has been changed. Sign in with your new password.',
    firstAdminCreated: 'The administrator {{email}} was created. Sign in to continue.',
  },
  newPassword: {
    title: 'Choose a new password',
    intro: 'Your password is temporary. Choose a new one to continue.',
    hint: 'At least 8 characters; common passwords are refused.',
    submit: 'Set password',
  },
  mfaSetup: {
    title: 'Set up two-factor authentication',
    step1:
      'Install an authenticator app on your phone (for example Google Authenticator, Microsoft Authenticator or 1Password).',
    step2: 'In the app, add an account and scan this QR code.',
    step3: 'Enter the 6-digit code the app shows.',
    qrAlt: 'QR code to add Flashbulb to your authenticator app',
    manualKey: "Can't scan? Enter this key",
    submit: 'Verify and continue',
    preparing: 'Preparing your authenticator set-up…',
  },
  mfaCode: {
    title: 'Two-factor authentication',
    intro: 'Enter the 6-digit code from your authenticator app.',
    submit: 'Verify',
    useRecoveryCode: 'Lost your phone? Use a recovery code',
    useAuthenticator: 'Use the authenticator code instead',
    recoveryIntro:
      'Enter one of the recovery codes you saved when you set up two-factor. Each code works once.',
    recoveryCode: 'Recovery code',
  },
  recoveryCodes: {
    title: 'Save your recovery codes',
    intro:
      'If you lose your phone, each of these codes signs you in once instead of the authenticator code. They are shown only now: copy or download them and keep them somewhere safe.',
    copy: 'Copy codes',
    copied: 'Copied',
    download: 'Download .txt',
    fileName: 'flashbulb-recovery-codes.txt',
    fileHeader:
      'Flashbulb two-factor recovery codes. Each code signs you in once instead of the authenticator code.',
    continue: 'I have saved them — continue',
    cardTitle: 'Two-factor recovery codes',
    remaining: '{{remaining}} of {{total}} left',
    none: 'No recovery codes yet: make a set so a lost phone does not lock you out.',
    lastUsed: 'A code was last used {{time}}.',
    low: 'Only a few codes are left: make a new set.',
    regenerate: 'Make new codes',
    regenerateTitle: 'New recovery codes',
    regenerateIntro: 'Your current codes stop working. Enter your password to continue.',
    regenerateSubmit: 'Make new codes',
    done: 'Done',
  },
  forgotPassword: {
    title: 'Reset your password',
    intro:
      'Enter the e-mail address of your account. We will send you a code to reset your password.',
    submit: 'Send code',
    sent: 'If an account exists for this e-mail address, we sent a code to it.',
    haveCode: 'I have a code',
  },
  confirmForgotPassword: {
    title: 'Set a new password',
    intro: 'Enter the 6-digit code from the e-mail and choose a new password.',
    resetCode: 'Code from the e-mail',
    submit: 'Change password',
  },
  verifyFromAddress: {
    title: 'E-mail sender address',
    verified: '{{address}} is verified. Event e-mails now go out from this address.',
    toConsole: 'Go to Flashbulb',
  },
  testCheckout: {
    title: 'Checkout',
    intro: 'Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.',
    cardNumber: 'Card number',
    pay: 'Pay {{amount}}',
    loading: 'Loading the payment',
    testMode: 'Test mode',
    noCharge: 'Flashbulb’s built-in test payment: no real card is charged.',
    unknown: 'This payment link is not valid. Ask for a new QR code at the kiosk.',
    back: 'Back to the album',
    backUnpaid: 'Not now: back to the album',
    result: {
      paid: 'Paid. Your photos are unlocked: go back to your album.',
      failed: 'The card was declined. Nothing was charged.',
      pending: 'The payment is still being processed.',
      cancelled: 'This payment link was closed at the kiosk.',
      expired: 'This payment link has expired.',
      refunded: 'This payment was refunded.',
    },
  },
  firstAdmin: {
    title: 'Create the first administrator',
    intro: 'Flashbulb has no users yet. Create the administrator account to start.',
    submit: 'Create administrator',
    setupToken: 'Set-up token',
    setupTokenHint:
      'The server printed it in its log at start. It is not needed when you open this page on the server machine itself.',
  },
  console: {
    signOut: 'Sign out',
    changePassword: {
      open: 'Change password',
      openShort: 'Password',
      title: 'Change your password',
      current: 'Current password',
      submit: 'Change password',
      done: 'Your password was changed. Your other sessions were signed out.',
      close: 'Close',
    },
    toggleNavigation: 'Toggle navigation',
    testPayments: 'Test payments are on — no real money is taken',
    nav: {
      overview: 'Overview',
      events: 'Events',
      organisations: 'Organisations',
      robots: 'Robots',
      apiKeys: 'API keys',
      users: 'Users',
      printDesk: 'Print desk',
      payments: 'Payments',
      outbox: 'Messages',
      webhooks: 'Webhooks',
      insight: 'Insight',
      operations: 'Operations',
      privacyLog: 'Privacy log',
    },
    myInfo: {
      title: 'My account',
      email: 'E-mail',
      role: 'Role',
      organisation: 'Organisation',
      noOrganisation: 'No organisation',
    },
    secondFactor: {
      title: 'Second factor at sign-in',
      intro:
        'Your account may sign in without two-factor. Choose what you enter after your password.',
      authenticator: 'A code from my authenticator app',
      password: 'Nothing: my password alone',
      save: 'Save',
      savedAuthenticator: 'Saved: you will enter an authenticator code at sign-in.',
      savedPassword: 'Saved: your password alone signs you in.',
    },
    notFoundTitle: 'Page not found',
    notFound: 'This page does not exist. The address may be mistyped, or the page has moved.',
    backToEvents: 'Back to my events',
    signIn: 'Sign in',
  },
  events: enEvents,
  album: enConsoleAlbum,
  albums: enAlbums,
  attendees: enAttendees,
  outbox: enOutbox,
  webhooks: enWebhooks,
  insight: enInsight,
  operations: enOperations,
  privacyLog: enPrivacyLog,
  leads: enLeads,
  moderation: enModeration,
  templates: enTemplates,
  printDesk: enPrintDesk,
  payments: enPayments,
  webapp: enWebapp,
  setup: enSetup,
  orders: enOrders,
  imageEdit: {
    title: 'Edit {{name}}',
    backToAlbum: 'Back to the album',
    loading: 'Loading the photo',
    loadError: 'The photo could not be loaded.',
    notEditable: 'Only ready photos can be edited.',
    rotate: 'Rotate 90° (R)',
    undo: 'Undo (Ctrl+Z)',
    resetCrop: 'Reset crop (Esc)',
    aspect: 'Crop ratio',
    presets: { free: 'Free', '1:1': '1:1', '4:3': '4:3', '3:2': '3:2', '2:3': '2:3' },
    brightness: 'Brightness',
    contrast: 'Contrast',
    summary: 'Rotated {{rotation}}°, result {{width}} × {{height}} px',
    cropArea: 'Crop area: drag to select',
    preview: 'Live preview',
    save: 'Save as new version',
    progress: 'Saving progress',
    steps: {
      grant: 'Preparing the upload…',
      upload: 'Uploading…',
      complete: 'Registering the new photo…',
      curate: 'Marking the original as curated…',
    },
    saved: 'Saved as a new version',
    savedDetail: 'The edited photo {{name}} was added; the original is kept and marked curated.',
    saveError: 'The edit could not be saved.',
  },
  roles: {
    '1': 'Super user',
    '2': 'Admin',
    '3': 'Event owner',
  },
};

export { enWebErrors };
