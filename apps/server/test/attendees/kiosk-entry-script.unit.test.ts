import { runInNewContext } from 'node:vm';
import { kioskCardCode, type KioskEntryConfig } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import { renderKioskEntryPage } from '../../src/pages/kiosk-entry.ts';

/**
 * The kiosk entry page's script reads a scan with the shared card-code rule itself: run in a
 * fresh context (nothing of the server's modules in reach), it sends exactly the code
 * `kioskCardCode` finds, and refuses exactly what it refuses.
 */

const config: KioskEntryConfig = {
  mode: 'evSB2',
  privateKey: 'PRIV',
  pricingModel: null,
  kioskPreviewSize: null,
  miniAlbumPreviewSize: null,
  allowKioskPhotoDelete: false,
  pageActiveTimeoutMs: 20_000,
};

/** The page's settings and script for one kiosk link's configuration. */
const pageParts = (kiosk: KioskEntryConfig) => {
  const html = renderKioskEntryPage({
    eventTitle: 'Gala',
    config: kiosk,
    origin: '',
    nonce: 'N',
  }).toString();
  return {
    settingsJson: /<script type="application\/json" id="kiosk-settings">([^<]*)<\/script>/.exec(
      html,
    )?.[1],
    script: /<script nonce="N">([\s\S]*?)<\/script>/.exec(html)?.[1],
  };
};
const { settingsJson, script } = pageParts(config);

/**
 * Submits one scan on the page's script; what it sent to check-card (the code, and the whole
 * body), or what it said.
 */
const submit = (
  scan: string,
  parts: ReturnType<typeof pageParts> = { settingsJson, script },
): { sent: string | null; body: Record<string, unknown> | null; said: string } => {
  const handlers: Record<string, (ev: unknown) => void> = {};
  const element = (id: string) => ({
    id,
    value: '',
    hidden: true,
    textContent: id === 'kiosk-settings' ? parts.settingsJson : '',
    className: '',
    focus: () => {},
    addEventListener: (type: string, fn: (ev: unknown) => void) => {
      handlers[`${id}:${type}`] = fn;
    },
  });
  const elements = new Map<string, ReturnType<typeof element>>();
  const byId = (id: string) => {
    if (!elements.has(id)) elements.set(id, element(id));
    return elements.get(id);
  };
  let sent: string | null = null;
  let body: Record<string, unknown> | null = null;
  runInNewContext(parts.script ?? '', {
    document: { getElementById: byId, addEventListener: () => {}, body: {} },
    window: {},
    navigator: {},
    localStorage: { removeItem: () => {} },
    sessionStorage: { clear: () => {} },
    fetch: (_url: string, init: { body: string }) => {
      body = JSON.parse(init.body) as Record<string, unknown>;
      sent = String(body.card_code);
      return new Promise(() => {});
    },
  });
  const input = byId('card');
  if (!input) throw new Error('no input');
  input.value = scan;
  handlers['scan-form:submit']?.({ preventDefault: () => {} });
  return { sent, body, said: byId('message')?.textContent ?? '' };
};

const SCANS = [
  'ABCD-EFGH',
  'abcd efgh',
  '  https://x.example/?attId=ab12-cd34&x=1 ',
  'https://x.example/?eName=E1&attId=ab12-cd34#top',
  'https://x.example/?attid=AB12CD34',
  'code=ab12-cd34',
  'a=b=ABCD1234',
  'https://x.example/?attId=AB12%2DCD34',
  'https://x.example/?attId=%E0%A4%A',
  '%',
  '',
  '   ',
  'ABC',
  'ABCD',
  'A'.repeat(40),
  'A'.repeat(41),
  'ABCD_EFGH',
  'ABCD.EFGH',
  'ÄBCD1234',
  '<script>',
  'https://x.example/?attId=',
  'https://x.example/?other=1',
  'ABCD\tEFGH',
  'ABCD\nEFGH',
  '1234-5678-9ABC-DEFG',
];

describe('kiosk entry page script', () => {
  it('is on the page', () => {
    expect(settingsJson).toBeTruthy();
    expect(script).toContain('kiosk-settings');
  });

  it('checks the card as the kiosk: the private key with the display token of its link', () => {
    const kiosk = pageParts({ ...config, displayToken: 'TOKEN-1' });
    expect(submit('ABCD-EFGH', kiosk).body).toEqual({
      key_type: 'private',
      key_value: 'PRIV',
      display: 'TOKEN-1',
      card_code: 'ABCDEFGH',
    });
    // A link without a token sends none (the server then refuses the check).
    expect(submit('ABCD-EFGH').body).toEqual({
      key_type: 'private',
      key_value: 'PRIV',
      card_code: 'ABCDEFGH',
    });
  });

  it.each(SCANS)('reads %j as kioskCardCode does', (scan) => {
    const expected = kioskCardCode(scan);
    const { sent, said } = submit(scan);
    expect(sent).toBe(expected);
    if (expected === null) expect(said).toBe('Invalid card code.');
  });
});
