/** French texts the server writes (first paint, pages, mails, SMS): same keys as English. */
export const frShared = {
  albumCover: {
    language: 'Langue',
    defaultTitle: 'Photos',
    count_one: '{{count}} photo',
    count_other: '{{count}} photos',
    live: 'En direct',
    logoAlt: 'Logo de {{title}}',
    support: 'Besoin d’aide ?',
    shareAlbum: 'Partager l’album',
    downloadAll: 'Tout télécharger',
    sendPhotos: 'Envoyer des photos',
  },
  pages: {
    kioskEntry: {
      language: 'Langue',
      title: '{{event}} · Borne',
      prompt: 'Scannez votre carte pour voir vos photos',
      tap: 'Touchez l’écran pour trouver vos photos',
      orScan: 'ou scannez votre carte',
      typeCode: 'Saisissez le code de votre carte',
      back: 'Retour',
      logoAlt: 'Logo de {{event}}',
      cardLabel: 'Code de la carte',
      submit: 'Ouvrir mon album',
      camera: 'Scanner avec la caméra',
      checking: 'Vérification…',
      welcome: 'Bienvenue !',
      invalid: 'Code de carte non valide.',
      offline: 'La borne est hors ligne. Veuillez réessayer.',
      noCamera: 'Aucune caméra n’est disponible.',
      notFoundDocumentTitle: 'Borne',
      notFoundTitle: 'Ce lien de borne n’est pas valide',
      notFoundText: 'Rouvrez le lien de la borne depuis la console.',
    },
    share: {
      open360: 'Ouvrir la vue à 360°',
      openVideo: 'Ouvrir la vidéo',
      openPhoto: 'Ouvrir la photo',
      photoAlt: 'Une photo de {{title}}',
      logoAlt: 'Logo de {{title}}',
      sharedFrom: 'Partagée depuis {{title}}',
      viewerTitle: 'Photo à 360°',
      close: 'Fermer',
      notFoundDocumentTitle: 'Introuvable',
      notAvailable: 'Cette photo n’est pas disponible',
      incompleteTitle: 'Ce lien est incomplet',
      incompleteText:
        'Une partie du lien semble manquer. Demandez à la personne qui l’a partagé de vous le renvoyer, ou ouvrez le lien de l’album que vous avez reçu.',
      unavailableTitle: 'Cette photo n’est pas disponible',
      unavailableText:
        'Elle a peut-être été supprimée, ou l’album n’est plus partagé. Demandez un nouveau lien à la personne qui vous l’a envoyé.',
    },
    unsubscribe: {
      askTitle: 'Se désabonner',
      ask: 'Ne plus envoyer de messages de {{event}} à {{recipient}} ?',
      button: 'Me désabonner',
      doneTitle: 'Vous êtes désabonné',
      done: '{{recipient}} ne recevra plus de messages de {{event}} (hors reçus d’achat).',
      invalidTitle: 'Lien non valide',
      invalidText:
        'Ce lien de désabonnement n’est pas valide. Utilisez celui du message le plus récent.',
    },
  },
  mail: {
    defaultSubject: 'Votre photo Flashbulb',
    album: {
      headingNoCount: 'Votre album est prêt',
      heading_one: 'Votre photo est prête',
      heading_other: 'Vos {{count}} photos sont prêtes',
      bodyNoCount:
        '<p>Bonjour {user_name},</p><p>Votre album est prêt. Les nouvelles photos y apparaissent au fur et à mesure.</p>',
      body_one: '<p>Bonjour {user_name},</p><p>Votre photo vous attend dans votre album.</p>',
      body_other:
        '<p>Bonjour {user_name},</p><p>Vos {{count}} photos vous attendent dans votre album.</p>',
      actionNoCount: 'Ouvrir l’album',
      action_one: 'Voir la photo',
      action_other: 'Voir les {{count}} photos',
    },
    share: {
      headingNoCount: 'Des photos de {{title}}',
      heading_one: 'Une photo de {{title}}',
      heading_other: '{{count}} photos de {{title}}',
      bodyNoCount: '<p>Bonjour {user_name},</p><p>Des photos ont été partagées avec vous.</p>',
      body_one:
        '<p>Bonjour {user_name},</p><p>Une photo a été partagée avec vous. Ouvrez-la pour la voir et la télécharger.</p>',
      body_other:
        '<p>Bonjour {user_name},</p><p>{{count}} photos ont été partagées avec vous. Ouvrez-les pour les voir et les télécharger.</p>',
    },
    receipt: {
      subject: 'Votre reçu : {{title}}',
      heading: 'Merci pour votre achat',
      body: '<p>Bonjour {user_name}, merci pour votre achat.</p>',
      action: 'Ouvrir votre album',
    },
    frame: {
      photoAlt: 'Photo {{number}}',
      more: 'et {{count}} de plus',
      unsubscribe: 'Se désabonner',
    },
    sms: {
      stop: 'STOP : {{url}}',
    },
  },
};
