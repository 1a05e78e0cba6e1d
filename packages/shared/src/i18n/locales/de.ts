/** German texts the server writes (first paint, pages, mails, SMS): same keys as English. */
export const deShared = {
  albumCover: {
    defaultTitle: 'Fotos',
    count_one: '{{count}} Foto',
    count_other: '{{count}} Fotos',
    live: 'Live',
    logoAlt: 'Logo von {{title}}',
    support: 'Hilfe nötig?',
    shareAlbum: 'Album teilen',
    downloadAll: 'Alle herunterladen',
    sendPhotos: 'Fotos senden',
  },
  pages: {
    kioskEntry: {
      title: '{{event}} · Kiosk',
      prompt: 'Karte scannen und Fotos ansehen',
      tap: 'Tippen, um deine Fotos zu finden',
      orScan: 'oder scanne deine Karte',
      typeCode: 'Gib den Code auf deiner Karte ein',
      back: 'Zurück',
      logoAlt: 'Logo von {{event}}',
      cardLabel: 'Kartencode',
      submit: 'Mein Album öffnen',
      camera: 'Mit der Kamera scannen',
      checking: 'Wird geprüft…',
      welcome: 'Willkommen!',
      invalid: 'Ungültiger Kartencode.',
      offline: 'Der Kiosk ist offline. Bitte versuche es noch einmal.',
      noCamera: 'Keine Kamera verfügbar.',
      notFoundDocumentTitle: 'Kiosk',
      notFoundTitle: 'Dieser Kiosk-Link ist ungültig',
      notFoundText: 'Öffne den Kiosk-Link erneut aus der Konsole.',
    },
    share: {
      open360: '360°-Ansicht öffnen',
      openVideo: 'Video öffnen',
      openPhoto: 'Foto öffnen',
      photoAlt: 'Ein Foto von {{title}}',
      logoAlt: 'Logo von {{title}}',
      sharedFrom: 'Geteilt von {{title}}',
      viewerTitle: '360°-Foto',
      close: 'Schließen',
      notFoundDocumentTitle: 'Nicht gefunden',
      notAvailable: 'Dieses Foto ist nicht verfügbar',
      incompleteTitle: 'Dieser Foto-Link ist unvollständig',
      incompleteText:
        'Ein Teil des Links scheint zu fehlen. Bitte die Person, die ihn geteilt hat, ihn noch einmal zu senden, oder öffne den Album-Link, den du bekommen hast.',
      unavailableTitle: 'Dieses Foto ist nicht verfügbar',
      unavailableText:
        'Vielleicht wurde es entfernt oder das Album wird nicht mehr geteilt. Bitte die Person, die es geteilt hat, um einen neuen Link.',
    },
    unsubscribe: {
      askTitle: 'Abmelden',
      ask: 'Keine Nachrichten mehr von {{event}} an {{recipient}} senden?',
      button: 'Abmelden',
      doneTitle: 'Du bist abgemeldet',
      done: '{{recipient}} erhält keine weiteren Nachrichten von {{event}} (ausgenommen Kaufbelege).',
      invalidTitle: 'Link ungültig',
      invalidText: 'Dieser Abmeldelink ist ungültig. Verwende den Link aus der neuesten Nachricht.',
    },
  },
  mail: {
    defaultSubject: 'Dein Foto von Flashbulb',
    album: {
      headingNoCount: 'Dein Album ist fertig',
      heading_one: 'Dein Foto ist fertig',
      heading_other: 'Deine {{count}} Fotos sind fertig',
      bodyNoCount:
        '<p>Hallo {user_name},</p><p>dein Album ist fertig. Neue Fotos erscheinen darin, sobald sie aufgenommen werden.</p>',
      body_one: '<p>Hallo {user_name},</p><p>dein Foto liegt in deinem Album bereit.</p>',
      body_other:
        '<p>Hallo {user_name},</p><p>deine {{count}} Fotos liegen in deinem Album bereit.</p>',
      actionNoCount: 'Album öffnen',
      action_one: 'Foto ansehen',
      action_other: '{{count}} Fotos ansehen',
    },
    share: {
      headingNoCount: 'Fotos von {{title}}',
      heading_one: 'Ein Foto von {{title}}',
      heading_other: '{{count}} Fotos von {{title}}',
      bodyNoCount: '<p>Hallo {user_name},</p><p>jemand hat Fotos mit dir geteilt.</p>',
      body_one:
        '<p>Hallo {user_name},</p><p>jemand hat ein Foto mit dir geteilt. Öffne es, um es anzusehen und herunterzuladen.</p>',
      body_other:
        '<p>Hallo {user_name},</p><p>jemand hat {{count}} Fotos mit dir geteilt. Öffne sie, um sie anzusehen und herunterzuladen.</p>',
    },
    receipt: {
      subject: 'Dein Beleg: {{title}}',
      heading: 'Danke für deinen Kauf',
      body: '<p>Hallo {user_name}, danke für deinen Kauf.</p>',
      action: 'Dein Album öffnen',
    },
    frame: {
      photoAlt: 'Foto {{number}}',
      more: '+ {{count}} weitere',
      unsubscribe: 'Abmelden',
    },
    sms: {
      stop: 'Abmelden: {{url}}',
    },
  },
};
