/** The console's Payments section and the card reader pairing popup (issue 11; albums spec §4). */
export const enPayments = {
  title: 'Payments',
  intro:
    'Pair Square card readers for your kiosks and see where each payment provider is connected. Provider secrets are write-only: once saved they are never shown again.',
  readers: {
    title: 'Card readers',
    add: 'Add a card reader',
    help: 'A Square Terminal sells at the kiosk once it is paired here and the event carries the Square access token (event editor, Paid tab).',
    none: 'No reader paired in this session yet.',
    name: 'Name',
    location: 'Location',
    deviceId: 'Device id',
    state: 'State',
    paired: 'Paired',
  },
  providers: {
    title: 'Providers',
    stripe: 'Stripe (pay on phone): the event’s Stripe secret key, in the event editor’s Paid tab.',
    square:
      'Square card readers: the event’s Square access token (Paid tab) and the reader’s device id in the kiosk link.',
    paypal:
      'PayPal card checkout on the album page: the installation’s PayPal client id and secret.',
    terminal: 'Payment terminal at the venue: the installation’s terminal address and ids.',
    shopify:
      'Shopify: the shop domain and order tags (Options), API key and password (Shop address).',
  },
  pairing: {
    title: 'Pair a card reader',
    stepToken: 'Access token',
    stepReader: 'Location and name',
    stepCode: 'Sign in on the reader',
    stepDone: 'Paired',
    tokenHelp:
      'Paste the access token of the Square account the reader belongs to (Square Developer dashboard). It is sent to Square for these calls only and is not stored.',
    token: 'Square access token',
    findLocations: 'Find locations',
    noLocations: 'This Square account has no locations.',
    location: 'Location',
    chooseLocation: 'Choose a location',
    deviceName: 'Reader name',
    deviceNamePlaceholder: 'Front desk reader',
    createCode: 'Create the sign-in code',
    signInWith: 'On the Square Terminal, choose “Sign in with device code” and enter:',
    checkPairing: 'Check pairing',
    stillUnpaired: 'The reader is still unpaired. Enter the code on the reader, then check again.',
    paired: '{{name}} is paired.',
    notSavedTitle: 'Not saved',
    notSaved:
      'Flashbulb does not save these values. Copy them now: put the access token in the event’s Paid tab and open the kiosk with the link below.',
    reversedToken: 'Access token (reversed)',
    deviceId: 'Device id',
    kioskLink: 'Example kiosk link',
    copy: 'Copy',
    copied: 'Copied',
    done: 'Done',
  },
};
