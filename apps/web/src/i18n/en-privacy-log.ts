/** English texts of the console privacy log (namespace `translation`, key `privacyLog`). */
export const enPrivacyLog = {
  title: 'Privacy log',
  hint: 'Every export and erasure of an attendee’s data: who answered it, when, for which attendee id and how much. It stays after an erasure; nothing else about the person is kept here.',
  loadError: 'The privacy log could not be loaded.',
  empty: 'No privacy request has been answered yet.',
  more: 'Older entries',
  nothing: 'nothing kept',
  unknownActor: '(user removed)',
  columns: {
    when: 'When',
    action: 'Request',
    attendee: 'Attendee id',
    who: 'Answered by',
    organisation: 'Organisation',
    result: 'Result',
  },
  actions: { export: 'Export', erase: 'Erasure' },
  counts: {
    photos: '{{count}} photos',
    leads: '{{count}} leads',
    consents: '{{count}} consents',
    messages: '{{count}} messages',
    orders: '{{count}} orders',
    selfies: '{{count}} selfies',
    profile_photos: '{{count}} profile photos',
    deleted_photos: '{{count}} photos deleted',
  },
};
