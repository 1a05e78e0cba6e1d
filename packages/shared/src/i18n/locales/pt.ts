/** Portuguese texts the server writes (first paint, pages, mails, SMS): same keys as English. */
export const ptShared = {
  albumCover: {
    defaultTitle: 'Fotos',
    count_one: '{{count}} foto',
    count_other: '{{count}} fotos',
    live: 'Ao vivo',
    logoAlt: 'Logótipo de {{title}}',
    support: 'Precisa de ajuda?',
    shareAlbum: 'Partilhar álbum',
    downloadAll: 'Transferir tudo',
    sendPhotos: 'Enviar fotos',
  },
  pages: {
    kioskEntry: {
      title: '{{event}} · Quiosque',
      prompt: 'Leia o seu cartão para ver as suas fotos',
      tap: 'Toque para encontrar as suas fotos',
      orScan: 'ou leia o seu cartão',
      typeCode: 'Escreva o código do seu cartão',
      back: 'Voltar',
      logoAlt: 'Logótipo de {{event}}',
      cardLabel: 'Código do cartão',
      submit: 'Abrir o meu álbum',
      camera: 'Ler com a câmara',
      checking: 'A verificar…',
      welcome: 'Bem-vindo!',
      invalid: 'Código de cartão inválido.',
      offline: 'O quiosque está sem ligação. Tente novamente.',
      noCamera: 'Não há nenhuma câmara disponível.',
      notFoundDocumentTitle: 'Quiosque',
      notFoundTitle: 'Este link de quiosque não é válido',
      notFoundText: 'Abra novamente o link do quiosque a partir da consola.',
    },
    share: {
      open360: 'Abrir a vista 360°',
      openVideo: 'Abrir o vídeo',
      openPhoto: 'Abrir a foto',
      photoAlt: 'Uma foto de {{title}}',
      logoAlt: 'Logótipo de {{title}}',
      sharedFrom: 'Partilhada a partir de {{title}}',
      viewerTitle: 'Foto 360°',
      close: 'Fechar',
      notFoundDocumentTitle: 'Não encontrada',
      notAvailable: 'Esta foto não está disponível',
      incompleteTitle: 'Este link de foto está incompleto',
      incompleteText:
        'Parece faltar uma parte do link. Peça a quem o partilhou que o envie de novo, ou abra o link do álbum que recebeu.',
      unavailableTitle: 'Esta foto não está disponível',
      unavailableText:
        'Pode ter sido removida, ou o álbum deixou de estar partilhado. Peça um novo link a quem o partilhou.',
    },
    unsubscribe: {
      askTitle: 'Cancelar subscrição',
      ask: 'Deixar de enviar mensagens de {{event}} para {{recipient}}?',
      button: 'Cancelar subscrição',
      doneTitle: 'Subscrição cancelada',
      done: '{{recipient}} não voltará a receber mensagens de {{event}} (exceto recibos de compras).',
      invalidTitle: 'Link inválido',
      invalidText:
        'Este link para cancelar a subscrição não é válido. Use o da mensagem mais recente.',
    },
  },
  mail: {
    defaultSubject: 'A sua foto da Flashbulb',
    album: {
      headingNoCount: 'O seu álbum está pronto',
      heading_one: 'A sua foto está pronta',
      heading_other: 'As suas {{count}} fotos estão prontas',
      bodyNoCount:
        '<p>Olá {user_name},</p><p>O seu álbum está pronto. As novas fotos vão aparecendo à medida que são tiradas.</p>',
      body_one: '<p>Olá {user_name},</p><p>A sua foto já está no seu álbum.</p>',
      body_other: '<p>Olá {user_name},</p><p>As suas {{count}} fotos já estão no seu álbum.</p>',
      actionNoCount: 'Abrir o álbum',
      action_one: 'Ver a foto',
      action_other: 'Ver as {{count}} fotos',
    },
    share: {
      headingNoCount: 'Fotos de {{title}}',
      heading_one: 'Uma foto de {{title}}',
      heading_other: '{{count}} fotos de {{title}}',
      bodyNoCount: '<p>Olá {user_name},</p><p>Partilharam fotos consigo.</p>',
      body_one:
        '<p>Olá {user_name},</p><p>Partilharam uma foto consigo. Abra-a para a ver e transferir.</p>',
      body_other:
        '<p>Olá {user_name},</p><p>Partilharam {{count}} fotos consigo. Abra-as para as ver e transferir.</p>',
    },
    receipt: {
      subject: 'O seu recibo: {{title}}',
      heading: 'Obrigado pela sua compra',
      body: '<p>Olá {user_name}, obrigado pela sua compra.</p>',
      action: 'Abrir o seu álbum',
    },
    frame: {
      photoAlt: 'Foto {{number}}',
      more: 'e mais {{count}}',
      unsubscribe: 'Cancelar subscrição',
    },
    sms: {
      stop: 'Parar: {{url}}',
    },
  },
};
