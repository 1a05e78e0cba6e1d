import { describe, expect, it } from 'vitest';
import { kioskEntryConfigFrom } from '@flashbulb/shared';
import { parseAcceptLanguage, pickGuestLanguage } from '@flashbulb/shared/i18n/languages';
import { requestLanguage } from '../../src/http/guest-language.ts';
import { renderKioskEntryPage } from '../../src/pages/kiosk-entry.ts';
import { renderSharePreviewState } from '../../src/pages/share.ts';
import { unsubscribeAskPage } from '../../src/pages/unsubscribe.ts';

/**
 * Which language a guest's page is written in (the link's `lang`, the remembered choice, the
 * browser when the event allows it, the event's), and the server's pages in it.
 */
const request = (url: string, headers: Record<string, string> = {}) => ({ url, headers });

describe('the guest’s language', () => {
  it('reads Accept-Language by weight, ignoring what it cannot use', () => {
    expect(parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      'fr-CH',
      'fr',
      'en',
      'de',
    ]);
    expect(parseAcceptLanguage('en;q=0.2, ar;q=0.9, xx;q=0')).toEqual(['ar', 'en']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('takes the choice, else the browser when the event allows it, else the event’s language', () => {
    const event = { guestLanguage: 'es', guestLanguageAuto: 1 };
    expect(pickGuestLanguage({ browser: ['zh', 'de-AT'], event })).toBe('de');
    expect(pickGuestLanguage({ browser: ['zh'], event })).toBe('es');
    expect(pickGuestLanguage({ browser: ['de'], event: { ...event, guestLanguageAuto: 0 } })).toBe(
      'es',
    );
    expect(pickGuestLanguage({ chosen: 'ar', browser: ['de'], event })).toBe('ar');
    expect(pickGuestLanguage({ chosen: 'klingon', browser: [], event: null })).toBe('en');
    // A kiosk screen is shared: its browser says nothing about the guest in front of it.
    expect(pickGuestLanguage({ browser: ['de'], event, kiosk: true })).toBe('es');
  });

  it('reads a request: the link’s lang, then the fb_lang cookie, then Accept-Language', () => {
    const event = { guestLanguage: 'it', guestLanguageAuto: 1 };
    expect(requestLanguage(request('/x?lang=pt', { cookie: 'fb_lang=de' }), event)).toBe('pt');
    expect(
      requestLanguage(request('/x', { cookie: 'a=b; fb_lang=de', 'accept-language': 'fr' }), event),
    ).toBe('de');
    expect(requestLanguage(request('/x', { 'accept-language': 'fr-FR,fr;q=0.9' }), event)).toBe(
      'fr',
    );
    expect(requestLanguage(request('/x', {}), event)).toBe('it');
    // On a kiosk the last guest's cookie does not count; the entry screen's link does.
    expect(requestLanguage(request('/k', { cookie: 'fb_lang=de' }), event, { kiosk: true })).toBe(
      'it',
    );
    expect(requestLanguage(request('/k?lang=ar'), event, { kiosk: true })).toBe('ar');
  });
});

describe('the server’s pages in the guest’s language', () => {
  const config = kioskEntryConfigFrom(new URLSearchParams('kType=evSB2&pvId=PRIV'))!;

  it('writes the kiosk entry screen in its language, with a switcher that passes the choice on', () => {
    const html = renderKioskEntryPage({
      eventTitle: 'Gala',
      config,
      origin: '',
      nonce: null,
      language: 'ar',
      languageChosen: true,
      selfUrl: '/kiosk/entry?kType=evSB2&pvId=PRIV',
    }).toString();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('المس الشاشة للعثور على صورك');
    expect(html).toContain('<nav class="langs" aria-label="اللغة">');
    expect(html).toContain('href="/kiosk/entry?kType=evSB2&amp;pvId=PRIV&amp;lang=es" lang="es"');
    expect(html).toContain('lang="ar" hreflang="ar" aria-current="true">العربية</a>');
    // The guest's album opens in the language chosen here.
    expect(html).toMatch(/"redirect":"[^"]*lang=ar"/);
    expect(html).toContain('"invalid":"رمز البطاقة غير صالح."');

    const english = renderKioskEntryPage({ eventTitle: 'Gala', config, origin: '', nonce: null });
    expect(english.toString()).toContain('<html lang="en" dir="ltr">');
    expect(english.toString()).not.toContain('lang=en"');
  });

  it('writes the share and unsubscribe pages in the reader’s language', () => {
    expect(renderSharePreviewState('unavailable', { language: 'de' }).toString()).toContain(
      'Dieses Foto ist nicht verfügbar',
    );
    const ask = unsubscribeAskPage({
      eventTitle: 'Gala',
      recipient: 'a@example.com',
      action: '/api/unsubscribe?token=x',
      language: 'fr',
    }).toString();
    expect(ask).toContain('<html lang="fr" dir="ltr">');
    expect(ask).toContain('Me désabonner');
  });
});
