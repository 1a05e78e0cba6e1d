import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** One part of a hand-built multipart/form-data body (a file when `filename` is set). */
export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/**
 * A multipart/form-data body built byte by byte, so tests control field order, duplicates and
 * truncation exactly (a browser's FormData would not let them).
 */
export const multipartBody = (
  parts: FormPart[],
): { payload: Buffer; headers: Record<string, string> } => {
  const boundary = `----flashbulb${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return {
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(payload.length),
    },
  };
};

/** The grant's fields in order, then the file last — what the spec's upload client sends. */
export const grantForm = (
  fields: Record<string, string>,
  file: Buffer,
  options: { filename?: string; contentType?: string } = {},
): FormPart[] => [
  ...Object.entries(fields).map(([name, value]) => ({ name, value })),
  {
    name: 'file',
    value: file,
    filename: options.filename ?? 'photo.jpg',
    contentType: options.contentType ?? fields['Content-Type'] ?? 'application/octet-stream',
  },
];

const XML_ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
  '&apos;': "'",
  '&quot;': '"',
};
const unescapeXml = (text: string | undefined): string | undefined =>
  text?.replace(/&(lt|gt|amp|apos|quot);/g, (entity) => XML_ENTITIES[entity] ?? entity);

/** `Code` and `Message` out of an S3 XML error, as the spec's upload client reads them. */
export const s3ErrorOf = (
  xml: string,
): { code: string | undefined; message: string | undefined } => ({
  code: unescapeXml(/<Code>([^<]*)<\/Code>/.exec(xml)?.[1]),
  message: unescapeXml(/<Message>([^<]*)<\/Message>/.exec(xml)?.[1]),
});

/** Every file under a folder (relative paths), for "nothing was stored" checks. */
export const filesUnder = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
};

/** Path and query of a URL, for `app.inject` (signed URLs are nothing without their query). */
export const pathOf = (url: string | null | undefined): string => {
  if (!url) throw new Error('no URL');
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Every byte of a stored object's body. */
export const bytesOf = async (body: AsyncIterable<unknown>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
};
