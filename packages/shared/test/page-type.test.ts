import { describe, expect, it } from 'vitest';
import {
  albumPageQuery,
  EVENT_PAGE_KINDS,
  eventPageLinks,
  pageTypeFromQuery,
} from '../src/index.ts';

const page = (query: string) => pageTypeFromQuery(query).page;

describe('page type from query parameters (albums spec §2.1)', () => {
  it('no key: the console', () => {
    expect(page('')).toEqual({ kind: 'console' });
    expect(page('?foo=bar&pId=')).toEqual({ kind: 'console' });
  });

  it('eName alone (optional token): the web-app page; with a key the key decides', () => {
    expect(page('?eName=AB12')).toEqual({ kind: 'webapp', eventName: 'AB12', token: null });
    expect(page('?eName=AB12&token=T1')).toEqual({
      kind: 'webapp',
      eventName: 'AB12',
      token: 'T1',
    });
    expect(page('?eName=AB12&pId=P').kind).toBe('public-album');
    expect(page('?eName=')).toEqual({ kind: 'console' });
  });

  it('mId: the mini-album of a sent link', () => {
    expect(page('?mId=TOKEN123')).toEqual({ kind: 'mini-album', token: 'TOKEN123' });
    expect(page('?mId=')).toEqual({ kind: 'console' });
  });

  it('kioskMode=true enables kiosk mode', () => {
    expect(pageTypeFromQuery('?kioskMode=true&pId=P').kioskMode).toBe(true);
    expect(pageTypeFromQuery('?kioskMode=false&pId=P').kioskMode).toBe(false);
    expect(pageTypeFromQuery('?pId=P').kioskMode).toBe(false);
  });

  it('kType=evSB1: all-photos kiosk, pvId required', () => {
    expect(page('?kType=evSB1&pvId=PV&attendeeId=A1')).toEqual({
      kind: 'kiosk-all-photos',
      privateKey: 'PV',
      attendeeId: 'A1',
    });
    expect(page('?kType=evSB1')).toEqual({
      kind: 'error',
      message: 'Query param &pvId is required',
    });
  });

  it('kType=evSB2: preselected-photos kiosk = attendee kiosk page, attId required', () => {
    expect(page('?kType=evSB2&privateId=PV&attId=A2')).toEqual({
      kind: 'attendee',
      attendeeId: 'A2',
      kioskType: 'evSB2',
      fromKiosk: false,
      privateKey: 'PV',
    });
    expect(page('?kType=evSB2')).toEqual({
      kind: 'error',
      message: 'Query param &attId is required',
    });
  });

  it('kType=evSB3: QR ride kiosk', () => {
    expect(page('?kType=evSB3&pvId=PV')).toEqual({ kind: 'kiosk-qr-ride', privateKey: 'PV' });
  });

  it('kType=evSB4: shop kiosk, stores the shop flag, attId required', () => {
    const context = pageTypeFromQuery('?kType=evSB4&attId=A4&kioskMode=true');
    expect(context.page).toMatchObject({ kind: 'attendee', attendeeId: 'A4', kioskType: 'evSB4' });
    expect(context.shopKiosk).toBe(true);
    expect(pageTypeFromQuery('?kType=evSB2&attId=A').shopKiosk).toBe(false);
    expect(page('?kType=evSB4')).toEqual({
      kind: 'error',
      message: 'Query param &attId is required',
    });
  });

  it('app=ios or app=android: app mode', () => {
    expect(pageTypeFromQuery('?pId=P&app=ios').app).toBe('ios');
    expect(pageTypeFromQuery('?pId=P&app=android').app).toBe('android');
    expect(pageTypeFromQuery('?pId=P&app=windows').app).toBeNull();
  });

  it('attType=evSB2: attendee album from a kiosk', () => {
    expect(page('?attId=A&attType=evSB2')).toMatchObject({
      kind: 'attendee',
      fromKiosk: true,
      kioskType: null,
    });
  });

  it('eId: curation page', () => {
    expect(page('?eId=OWNER')).toEqual({ kind: 'curation', ownerKey: 'OWNER' });
  });

  it('pId: public page; with kioskMode the kiosk album page', () => {
    expect(page('?pId=PUB')).toEqual({ kind: 'public-album', publicKey: 'PUB', mode: 'grid' });
    expect(page('?pId=PUB&kioskMode=true')).toEqual({
      kind: 'kiosk-album',
      publicKey: 'PUB',
      mode: 'grid',
    });
    expect(page('?pId=PUB&kioskMode=true&mode=stream')).toMatchObject({
      kind: 'kiosk-album',
      mode: 'stream',
    });
    expect(page('?pId=PUB&mode=slideshow')).toMatchObject({
      kind: 'public-album',
      mode: 'slideshow',
    });
    expect(page('?pId=PUB&mode=nonsense')).toMatchObject({ mode: 'grid' });
  });

  it('pvId without kType: private album for guests', () => {
    expect(page('?pvId=PRIV')).toEqual({ kind: 'private-album', privateKey: 'PRIV' });
  });

  it('attId: attendee page, remembered in a cookie outside kiosk mode only', () => {
    const outside = pageTypeFromQuery('?attId=ATT-1');
    expect(outside.page).toMatchObject({ kind: 'attendee', attendeeId: 'ATT-1' });
    expect(outside.rememberAttendeeId).toBe('ATT-1');
    expect(pageTypeFromQuery('?attId=ATT-1&kioskMode=true').rememberAttendeeId).toBeNull();
    expect(pageTypeFromQuery('?pId=P').rememberAttendeeId).toBeNull();
  });

  it('attOrgId: attendee id and organisation id joined by a dash (older web app)', () => {
    expect(page('?attOrgId=abc-123-42')).toEqual({
      kind: 'attendee-legacy',
      attendeeId: 'abc-123',
      organisationId: '42',
    });
    expect(page('?attOrgId=nodash')).toEqual({ kind: 'console' });
  });

  it('decodes stHtmlUrl', () => {
    const encoded = encodeURIComponent(encodeURIComponent('https://x.example/share?a=1&b=2'));
    expect(pageTypeFromQuery(`?pId=P&stHtmlUrl=${encoded}`).stHtmlUrl).toBe(
      'https://x.example/share?a=1&b=2',
    );
    expect(pageTypeFromQuery('?pId=P').stHtmlUrl).toBeNull();
  });

  it('gives kType precedence, then eId, pId, pvId', () => {
    expect(page('?kType=evSB1&pvId=PV&pId=P&eId=E').kind).toBe('kiosk-all-photos');
    expect(page('?eId=E&pId=P&pvId=PV').kind).toBe('curation');
    expect(page('?pId=P&pvId=PV').kind).toBe('public-album');
  });
});

describe('album page links', () => {
  it.each([
    ['public', { kind: 'public-album', mode: 'grid' }, false],
    ['kioskAlbum', { kind: 'kiosk-album', mode: 'grid' }, true],
    ['kioskStream', { kind: 'kiosk-album', mode: 'stream' }, true],
    ['slideShow', { kind: 'public-album', mode: 'slideshow' }, false],
  ] as const)('%s links open the page they name', (kind, page, kioskMode) => {
    const context = pageTypeFromQuery(albumPageQuery('k/ey+1', kind));
    expect(context.page).toEqual({ ...page, publicKey: 'k/ey+1' });
    expect(context.kioskMode).toBe(kioskMode);
  });
});

describe('other links the product builds (albums §2.1)', () => {
  it('photoId / imgSrc: the share-preview page, every parameter kept as given', () => {
    expect(
      pageTypeFromQuery('?url=https%3A%2F%2Fx.example%2F&imgSrc=a.jpg&photoId=ab12&eName=WXYZ')
        .page,
    ).toEqual({
      kind: 'share-preview',
      photoId: 'ab12',
      imgSrc: 'a.jpg',
      url: 'https://x.example/',
      eventName: 'WXYZ',
    });
    // No photo named: still the share-preview page (it says the link is incomplete).
    expect(pageTypeFromQuery('?imgSrc=a.jpg').page).toMatchObject({
      kind: 'share-preview',
      photoId: null,
    });
  });

  it('ename (lower case): the photo-stream site, QR codes with mode=qrcode', () => {
    expect(pageTypeFromQuery('?ename=WXYZ&mode=qrcode&token=pub').page).toEqual({
      kind: 'photo-stream',
      eventName: 'WXYZ',
      qrCode: true,
      publicKey: 'pub',
    });
    expect(pageTypeFromQuery('?ename=WXYZ').page).toMatchObject({ qrCode: false, publicKey: null });
    // `eName` stays the web-app page.
    expect(pageTypeFromQuery('?eName=WXYZ').page.kind).toBe('webapp');
  });

  it('roamer (optional eventKey): the roaming photographer’s upload page', () => {
    expect(pageTypeFromQuery('?roamer&eventKey=own%2B1').page).toEqual({
      kind: 'roamer',
      eventKey: 'own+1',
    });
    expect(pageTypeFromQuery('?roamer').page).toEqual({ kind: 'roamer', eventKey: null });
    // The key alone is not the page (it would open an owner's key from any stray link).
    expect(pageTypeFromQuery('?eventKey=own').page.kind).toBe('console');
  });
});

describe('event page links (every page type an operator hands out)', () => {
  const links = eventPageLinks('https://photos.example', {
    name: 'AB12',
    publicKey: 'pub/1+',
    privateKey: 'prv&2',
    ownerKey: 'own=3',
    displayToken: 'scr/4+',
  });
  const opened = (kind: (typeof EVENT_PAGE_KINDS)[number]) =>
    pageTypeFromQuery(new URL(links[kind]).search);

  it('has one link per page type, each on the origin', () => {
    expect(Object.keys(links).sort()).toEqual([...EVENT_PAGE_KINDS].sort());
    for (const url of Object.values(links))
      expect(url.startsWith('https://photos.example/?')).toBe(true);
  });

  it.each([
    ['public', { kind: 'public-album', publicKey: 'pub/1+', mode: 'grid' }, false],
    ['private', { kind: 'private-album', privateKey: 'prv&2' }, false],
    ['curation', { kind: 'curation', ownerKey: 'own=3' }, false],
    ['kioskAlbum', { kind: 'kiosk-album', publicKey: 'pub/1+', mode: 'grid' }, true],
    ['kioskStream', { kind: 'kiosk-album', publicKey: 'pub/1+', mode: 'stream' }, true],
    ['slideShow', { kind: 'public-album', publicKey: 'pub/1+', mode: 'slideshow' }, false],
    ['qrRide', { kind: 'kiosk-qr-ride', privateKey: 'prv&2' }, true],
    ['allPhotosKiosk', { kind: 'kiosk-all-photos', privateKey: 'prv&2', attendeeId: null }, true],
    ['webApp', { kind: 'webapp', eventName: 'AB12', token: 'pub/1+' }, false],
    [
      'photoStream',
      { kind: 'photo-stream', eventName: 'AB12', qrCode: true, publicKey: 'pub/1+' },
      false,
    ],
    ['roamer', { kind: 'roamer', eventKey: 'own=3' }, false],
  ] as const)('%s opens the page it names, keys intact', (kind, page, kioskMode) => {
    expect(opened(kind).page).toEqual(page);
    expect(opened(kind).kioskMode).toBe(kioskMode);
  });

  it('names the event on the web-app page and carries the public key as its token (its Find me searches with it)', () => {
    expect(new URL(links.webApp).searchParams.get('eName')).toBe('AB12');
    expect(new URL(links.webApp).searchParams.get('token')).toBe('pub/1+');
    expect(new URL(links.webApp).searchParams.get('pId')).toBeNull();
  });

  it('gives the display token (the lead gate’s pass) to the organiser’s screens only', () => {
    const screens = [
      'kioskAlbum',
      'kioskStream',
      'slideShow',
      'qrRide',
      'allPhotosKiosk',
      'photoStream',
    ] as const;
    for (const kind of screens) expect(opened(kind).displayToken).toBe('scr/4+');
    for (const kind of ['public', 'private', 'curation', 'webApp', 'roamer'] as const) {
      expect(opened(kind).displayToken).toBeNull();
      expect(links[kind]).not.toContain('display=');
    }
  });
});
