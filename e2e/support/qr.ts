import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** Read a QR code from a PNG screenshot, as a phone camera would; throws when none is found. */
export const decodeQrPng = (png: Buffer): string => {
  const image = PNG.sync.read(png);
  const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!code) throw new Error(`no QR code found in a ${image.width}x${image.height} screenshot`);
  return code.data;
};

/** The base32 secret of an `otpauth://totp/…?secret=…` URI. */
export const otpauthSecret = (uri: string): string => {
  const url = new URL(uri);
  if (url.protocol !== 'otpauth:' || url.host !== 'totp') throw new Error(`not a TOTP URI: ${uri}`);
  const secret = url.searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
};
