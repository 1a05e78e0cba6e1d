import { describe, expect, it } from 'vitest';
import {
  countdownText,
  KIOSK_SESSION_DEFAULT_MS,
  kioskIdleTimeoutMs,
  kioskStillTherePromptMs,
  kioskCardCode,
  kioskCardLink,
  kioskCardText,
  kioskDeleteAllowed,
  kioskEntryConfigFrom,
  kioskEntryUrl,
  kioskRedirectUrl,
  showPrintImageList,
} from '../src/rules/kiosk.ts';

const q = (s: string) => new URLSearchParams(s);

describe('what a kiosk card carries (albums §2.3)', () => {
  it('prints the private id and encodes an attId link the entry page reads back to it', () => {
    for (const privateId of ['K7QX2MPA', 'k7qx-2mpa', ' K7QX 2MPA ']) {
      const printed = kioskCardText(privateId);
      expect(printed).toBe('K7QX2MPA');
      const link = kioskCardLink('https://photos.example/', privateId);
      expect(link).toBe('https://photos.example/?attId=K7QX2MPA');
      // Exactly what the entry page accepts: the code typed from print, or the QR's link.
      expect(kioskCardCode(printed)).toBe(printed);
      expect(kioskCardCode(link)).toBe(printed);
    }
  });
});

describe('kiosk card code (albums §2.3)', () => {
  it('is the text after = of an attId link, dashes removed, upper case', () => {
    expect(kioskCardCode('https://x.example/?attId=AB12-CD34')).toBe('AB12CD34');
    expect(kioskCardCode('  https://x.example/?eName=E1&attId=ab12-cd34&x=1 ')).toBe('AB12CD34');
    expect(kioskCardCode('code=ab12-cd34')).toBe('AB12CD34');
    expect(kioskCardCode('https://x.example/?attId=ab12-cd34#top')).toBe('AB12CD34');
    expect(kioskCardCode('https://x.example/?attId=AB12%2DCD34')).toBe('AB12CD34');
    expect(kioskCardCode('ab12 cd34')).toBe('AB12CD34');
  });
  it('reads the private id of a booth-chosen attendee’s album link (id~private id)', () => {
    expect(kioskCardCode('https://x.example/?attId=1234~K7QX2MPA')).toBe('K7QX2MPA');
    expect(kioskCardCode('https://x.example/?attId=1234%7Ek7qx-2mpa')).toBe('K7QX2MPA');
    expect(kioskCardCode('https://x.example/?attId=1234~')).toBeNull();
  });
  it('is null for nothing, markup or stray characters', () => {
    expect(kioskCardCode('')).toBeNull();
    expect(kioskCardCode('https://x.example/?attId=')).toBeNull();
    expect(kioskCardCode('<script>')).toBeNull();
    expect(kioskCardCode('?attId=AB%')).toBeNull();
    expect(kioskCardCode('abc')).toBeNull();
  });
});

describe('kiosk entry config and redirect (albums §2.3)', () => {
  it('needs the private key and one of the two modes', () => {
    expect(kioskEntryConfigFrom(q('kType=evSB2'))).toBeNull();
    expect(kioskEntryConfigFrom(q('kType=evSB3&pvId=k'))).toBeNull();
    expect(kioskEntryConfigFrom(q('pvId=k'))).toMatchObject({ mode: 'evSB2', privateKey: 'k' });
    expect(kioskEntryConfigFrom(q('kType=evSB2&privateId=k'))?.privateKey).toBe('k');
  });
  it('takes the page-active timeout from the link only when it sets one, never under 3 s', () => {
    expect(kioskEntryConfigFrom(q('pvId=k'))?.pageActiveTimeoutMs).toBeNull();
    expect(kioskEntryConfigFrom(q('pvId=k&pageActiveTimeout=10'))?.pageActiveTimeoutMs).toBe(3000);
    expect(kioskEntryConfigFrom(q('pvId=k&pageActiveTimeout=x'))?.pageActiveTimeoutMs).toBeNull();
    expect(kioskEntryConfigFrom(q('pvId=k&pageActiveTimeout=600000'))?.pageActiveTimeoutMs).toBe(
      600_000,
    );
    // A link without one sends none on: the kiosk screen asks its event.
    const config = kioskEntryConfigFrom(q('pvId=k'))!;
    expect(kioskEntryUrl('https://k.example', config)).not.toContain('pageActiveTimeout');
    expect(kioskRedirectUrl('https://k.example', config, 'A1')).not.toContain('pageActiveTimeout');
  });
  it('idles a kiosk session for the link’s timeout, else the event’s session expiry, else 2 minutes', () => {
    expect(kioskIdleTimeoutMs(null, null)).toBe(KIOSK_SESSION_DEFAULT_MS);
    expect(KIOSK_SESSION_DEFAULT_MS).toBe(120_000);
    expect(kioskIdleTimeoutMs(null, undefined)).toBe(120_000);
    expect(kioskIdleTimeoutMs(null, 5)).toBe(300_000);
    expect(kioskIdleTimeoutMs(8000, 5)).toBe(8000);
    // Never past an hour, never under 3 s.
    expect(kioskIdleTimeoutMs(null, 600)).toBe(3_600_000);
    expect(kioskIdleTimeoutMs(1000, null)).toBe(3000);
    // "Still there?" asks in the last 30 s, or the last third of a short timeout.
    expect(kioskStillTherePromptMs(120_000)).toBe(30_000);
    expect(kioskStillTherePromptMs(9000)).toBe(3000);
  });
  it('all-photos: evSB1 with pvId, attendeeId and the pricing model, plus both preview sizes', () => {
    const config = kioskEntryConfigFrom(
      q('kType=evSB1&pvId=key 1&pricingModel=gold&kioskPreviewSize=800&miniAlbumPreviewSize=300'),
    )!;
    const url = new URL(kioskRedirectUrl('https://events.example/', config, 'AB12CD34'));
    expect(url.origin + url.pathname).toBe('https://events.example/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      kType: 'evSB1',
      pvId: 'key 1',
      attendeeId: 'AB12CD34',
      pricingModel: 'gold',
      kioskPreviewSize: '800',
      miniAlbumPreviewSize: '300',
      kioskMode: 'true',
    });
  });
  it('preselected: evSB2 with privateId, attId and the pricing model; sizes present even when unset', () => {
    const config = kioskEntryConfigFrom(q('kType=evSB2&pvId=k&allowKioskPhotoDelete=true'))!;
    const url = new URL(kioskRedirectUrl('https://events.example', config, 'AB12CD34'));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      kType: 'evSB2',
      privateId: 'k',
      attId: 'AB12CD34',
      pricingModel: '',
      kioskPreviewSize: '',
      miniAlbumPreviewSize: '',
      kioskMode: 'true',
      allowKioskPhotoDelete: 'true',
    });
  });
  it('carries the event’s display token from the entry link to the kiosk screen and back', () => {
    const config = kioskEntryConfigFrom(q('kType=evSB2&pvId=k&display=tok%2Fen'))!;
    expect(config.displayToken).toBe('tok/en');
    const screen = new URL(kioskRedirectUrl('https://events.example', config, 'AB12CD34'));
    expect(screen.searchParams.get('display')).toBe('tok/en');
    const entry = new URL(kioskEntryUrl('https://api.example/', config));
    expect(entry.searchParams.get('display')).toBe('tok/en');
    expect(kioskEntryConfigFrom(q('kType=evSB2&pvId=k'))!.displayToken).toBeNull();
  });
  it('the entry link round-trips its settings', () => {
    const config = kioskEntryConfigFrom(
      q('kType=evSB1&pvId=k&pricingModel=p&kioskPreviewSize=5&pageActiveTimeout=4000'),
    )!;
    const link = new URL(kioskEntryUrl('https://api.example/', config));
    expect(link.pathname).toBe('/kiosk/entry');
    expect(kioskEntryConfigFrom(link.searchParams)).toEqual(config);
  });
});

describe('kiosk screen rules (albums §4, §6)', () => {
  it('counts down as mm:ss', () => {
    expect(countdownText(20_000)).toBe('00:20');
    expect(countdownText(61_500)).toBe('01:02');
    expect(countdownText(0)).toBe('00:00');
    expect(countdownText(-5)).toBe('00:00');
  });
  it('allows kiosk delete only with the flag true in the query or local storage', () => {
    expect(kioskDeleteAllowed('true', null)).toBe(true);
    expect(kioskDeleteAllowed(null, 'true')).toBe(true);
    expect(kioskDeleteAllowed('false', 'false')).toBe(false);
    expect(kioskDeleteAllowed('1', null)).toBe(false);
    expect(kioskDeleteAllowed(null, null)).toBe(false);
  });
  it('hides the print image list as §4 says', () => {
    const rule = (kioskMode: boolean, ownerAlbum: boolean, all: number, pools: number) =>
      showPrintImageList({
        kioskMode,
        ownerAlbum,
        printFromAllAlbums: all,
        printerPoolCount: pools,
      });
    expect(rule(false, false, 1, 1)).toBe(false);
    expect(rule(true, false, 1, 1)).toBe(true);
    expect(rule(false, true, 1, 1)).toBe(true);
    expect(rule(false, false, 0, 1)).toBe(true);
    expect(rule(true, false, 0, 2)).toBe(false);
    expect(rule(true, true, 0, 2)).toBe(true);
  });
});
