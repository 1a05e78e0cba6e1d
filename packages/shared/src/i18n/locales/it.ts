/** Italian texts the server writes (first paint, pages, mails, SMS): same keys as English. */
export const itShared = {
  albumCover: {
    language: 'Lingua',
    defaultTitle: 'Foto',
    count_one: '{{count}} foto',
    count_other: '{{count}} foto',
    live: 'Live',
    logoAlt: 'Logo di {{title}}',
    support: 'Serve aiuto?',
    shareAlbum: 'Condividi album',
    downloadAll: 'Scarica tutto',
    sendPhotos: 'Invia foto',
  },
  pages: {
    kioskEntry: {
      language: 'Lingua',
      title: '{{event}} · Chiosco',
      prompt: 'Scansiona la tua tessera per vedere le tue foto',
      tap: 'Tocca per trovare le tue foto',
      orScan: 'oppure scansiona la tua tessera',
      typeCode: 'Digita il codice della tua tessera',
      back: 'Indietro',
      logoAlt: 'Logo di {{event}}',
      cardLabel: 'Codice della tessera',
      submit: 'Apri il mio album',
      camera: 'Scansiona con la fotocamera',
      checking: 'Verifica in corso…',
      welcome: 'Benvenuto!',
      invalid: 'Codice tessera non valido.',
      offline: 'Il chiosco è offline. Riprova.',
      noCamera: 'Nessuna fotocamera disponibile.',
      notFoundDocumentTitle: 'Chiosco',
      notFoundTitle: 'Questo link del chiosco non è valido',
      notFoundText: 'Riapri il link del chiosco dalla console.',
    },
    share: {
      open360: 'Apri la vista a 360°',
      openVideo: 'Apri il video',
      openPhoto: 'Apri la foto',
      photoAlt: 'Una foto di {{title}}',
      logoAlt: 'Logo di {{title}}',
      sharedFrom: 'Condivisa da {{title}}',
      viewerTitle: 'Foto a 360°',
      close: 'Chiudi',
      notFoundDocumentTitle: 'Non trovata',
      notAvailable: 'Questa foto non è disponibile',
      incompleteTitle: 'Questo link è incompleto',
      incompleteText:
        'Sembra che manchi una parte del link. Chiedi a chi l’ha condiviso di rimandartelo, oppure apri il link dell’album che hai ricevuto.',
      unavailableTitle: 'Questa foto non è disponibile',
      unavailableText:
        'Potrebbe essere stata rimossa, o l’album non è più condiviso. Chiedi un nuovo link a chi te l’ha mandato.',
    },
    unsubscribe: {
      askTitle: 'Annulla iscrizione',
      ask: 'Non inviare più messaggi di {{event}} a {{recipient}}?',
      button: 'Annulla iscrizione',
      doneTitle: 'Iscrizione annullata',
      done: '{{recipient}} non riceverà altri messaggi di {{event}} (tranne le ricevute d’acquisto).',
      invalidTitle: 'Link non valido',
      invalidText:
        'Questo link per annullare l’iscrizione non è valido. Usa quello del messaggio più recente.',
    },
  },
  mail: {
    defaultSubject: 'La tua foto di Flashbulb',
    album: {
      headingNoCount: 'Il tuo album è pronto',
      heading_one: 'La tua foto è pronta',
      heading_other: 'Le tue {{count}} foto sono pronte',
      bodyNoCount:
        '<p>Ciao {user_name},</p><p>il tuo album è pronto. Le nuove foto compariranno man mano che vengono scattate.</p>',
      body_one: '<p>Ciao {user_name},</p><p>la tua foto ti aspetta nel tuo album.</p>',
      body_other:
        '<p>Ciao {user_name},</p><p>le tue {{count}} foto ti aspettano nel tuo album.</p>',
      actionNoCount: 'Apri l’album',
      action_one: 'Guarda la foto',
      action_other: 'Guarda le {{count}} foto',
    },
    share: {
      headingNoCount: 'Foto da {{title}}',
      heading_one: 'Una foto da {{title}}',
      heading_other: '{{count}} foto da {{title}}',
      bodyNoCount: '<p>Ciao {user_name},</p><p>qualcuno ha condiviso delle foto con te.</p>',
      body_one:
        '<p>Ciao {user_name},</p><p>qualcuno ha condiviso una foto con te. Aprila per guardarla e scaricarla.</p>',
      body_other:
        '<p>Ciao {user_name},</p><p>qualcuno ha condiviso {{count}} foto con te. Aprile per guardarle e scaricarle.</p>',
    },
    receipt: {
      subject: 'La tua ricevuta: {{title}}',
      heading: 'Grazie per l’acquisto',
      body: '<p>Ciao {user_name}, grazie per l’acquisto.</p>',
      action: 'Apri il tuo album',
    },
    frame: {
      photoAlt: 'Foto {{number}}',
      more: 'e altre {{count}}',
      unsubscribe: 'Annulla iscrizione',
    },
    sms: {
      stop: 'Stop: {{url}}',
    },
  },
};
