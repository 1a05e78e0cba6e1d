import { PassThrough, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A zip archive written as a stream, entries stored as they are (photos and videos are already
 * compressed): each entry's header, its bytes as they are read, then a data descriptor with the
 * CRC-32 and size, and at the end the central directory. Nothing is held in memory but one
 * chunk, so a whole album streams at any size. ZIP64 records are added only when an offset or
 * the entry count passes the classic format's limits (APPNOTE 6.3.10, §4.3 and §4.5.3).
 */

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0008 | 0x0800;
/** 4.5: made by / needs version 4.5 (ZIP64), or 2.0. */
const VERSION_ZIP64 = 45;
const VERSION_DEFAULT = 20;

export interface ZipEntry {
  /** File name inside the archive (UTF-8, `/` separated). */
  name: string;
  modified: Date;
  /** Opens the entry's bytes when the writer reaches it (one open stream at a time). */
  open: () => Promise<Readable>;
  /**
   * The entry's length when it is known before it is read (the archive's length was promised,
   * `zipLength`): an entry that then cannot be opened or has another length ends the stream with
   * an error instead of being left out.
   */
  size?: number;
}

interface Written {
  name: Buffer;
  crc: number;
  size: number;
  offset: number;
  time: number;
  date: number;
}

const dosTime = (d: Date): { time: number; date: number } => {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
};

const localHeader = (entry: Written): Buffer => {
  const head = Buffer.alloc(30);
  head.writeUInt32LE(0x04034b50, 0);
  head.writeUInt16LE(VERSION_DEFAULT, 4);
  head.writeUInt16LE(FLAGS, 6);
  head.writeUInt16LE(0, 8); // stored
  head.writeUInt16LE(entry.time, 10);
  head.writeUInt16LE(entry.date, 12);
  // CRC and sizes are in the data descriptor (bit 3).
  head.writeUInt16LE(entry.name.length, 26);
  head.writeUInt16LE(0, 28);
  return Buffer.concat([head, entry.name]);
};

const dataDescriptor = (entry: Written): Buffer => {
  const d = Buffer.alloc(16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(entry.crc, 4);
  d.writeUInt32LE(entry.size, 8);
  d.writeUInt32LE(entry.size, 12);
  return d;
};

const centralHeader = (entry: Written): Buffer => {
  const zip64 = entry.offset >= MAX32;
  const extra = zip64 ? Buffer.alloc(12) : Buffer.alloc(0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(BigInt(entry.offset), 4);
  }
  const head = Buffer.alloc(46);
  head.writeUInt32LE(0x02014b50, 0);
  head.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 4);
  head.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, 6);
  head.writeUInt16LE(FLAGS, 8);
  head.writeUInt16LE(0, 10);
  head.writeUInt16LE(entry.time, 12);
  head.writeUInt16LE(entry.date, 14);
  head.writeUInt32LE(entry.crc, 16);
  head.writeUInt32LE(entry.size, 20);
  head.writeUInt32LE(entry.size, 24);
  head.writeUInt16LE(entry.name.length, 28);
  head.writeUInt16LE(extra.length, 30);
  head.writeUInt32LE(zip64 ? MAX32 : entry.offset, 42);
  return Buffer.concat([head, entry.name, extra]);
};

const endRecords = (count: number, cdOffset: number, cdSize: number): Buffer => {
  const parts: Buffer[] = [];
  const zip64 = count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  if (zip64) {
    const eocd64 = Buffer.alloc(56);
    eocd64.writeUInt32LE(0x06064b50, 0);
    eocd64.writeBigUInt64LE(44n, 4);
    eocd64.writeUInt16LE(VERSION_ZIP64, 12);
    eocd64.writeUInt16LE(VERSION_ZIP64, 14);
    eocd64.writeBigUInt64LE(BigInt(count), 24);
    eocd64.writeBigUInt64LE(BigInt(count), 32);
    eocd64.writeBigUInt64LE(BigInt(cdSize), 40);
    eocd64.writeBigUInt64LE(BigInt(cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(eocd64, locator);
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(Math.min(count, MAX16), 8);
  eocd.writeUInt16LE(Math.min(count, MAX16), 10);
  eocd.writeUInt32LE(Math.min(cdSize, MAX32), 12);
  eocd.writeUInt32LE(Math.min(cdOffset, MAX32), 16);
  parts.push(eocd);
  return Buffer.concat(parts);
};

/**
 * The exact length of the archive `zipStream` writes for entries of these names and sizes (a
 * `Content-Length`, so a download shows real progress): per entry its local header, bytes and data
 * descriptor, then its central header (with a ZIP64 offset past 4 GiB), and the end records.
 */
export const zipLength = (entries: readonly { name: string; size: number }[]): number => {
  let offset = 0;
  let central = 0;
  for (const entry of entries) {
    const name = Buffer.byteLength(entry.name, 'utf8');
    central += 46 + name + (offset >= MAX32 ? 12 : 0);
    offset += 30 + name + entry.size + 16;
  }
  const zip64 = entries.length >= MAX16 || offset >= MAX32 || central >= MAX32;
  return offset + central + (zip64 ? 56 + 20 : 0) + 22;
};

/** `a.jpg`, `a (2).jpg`, …: names inside one archive are unique. */
export const uniqueNames = (): ((name: string) => string) => {
  const used = new Set<string>();
  return (name) => {
    const clean =
      name
        .replace(/[\\/:*?"<>|]/g, '_')
        .replace(/\p{Cc}/gu, '_')
        .replace(/^\.+/, '') || 'photo';
    let candidate = clean;
    const dot = clean.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [clean.slice(0, dot), clean.slice(dot)] : [clean, ''];
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
};

/**
 * The archive of `entries` (an async iterable, so a caller can page through a large album while
 * the zip streams). An entry whose `open` fails is left out; a failure while its bytes flow ends
 * the stream with that error (the client sees a broken download, never a wrong file).
 */
export const zipStream = (entries: AsyncIterable<ZipEntry>): Readable => {
  const out = new PassThrough();
  let offset = 0;
  const push = async (chunk: Buffer) => {
    offset += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  const run = async () => {
    const written: Written[] = [];
    for await (const entry of entries) {
      if (out.destroyed) return;
      let body: Readable;
      try {
        body = await entry.open();
      } catch (error) {
        // A promised length cannot leave an entry out.
        if (entry.size !== undefined) throw error;
        continue;
      }
      const item: Written = {
        name: Buffer.from(entry.name, 'utf8'),
        crc: 0,
        size: 0,
        offset,
        ...dosTime(entry.modified),
      };
      await push(localHeader(item));
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (out.destroyed) {
          body.destroy();
          return;
        }
        item.crc = crc32(chunk, item.crc);
        item.size += chunk.length;
        await push(chunk);
      }
      if (item.size >= MAX32) throw new Error('an entry of 4 GiB or more is not supported');
      if (entry.size !== undefined && item.size !== entry.size)
        throw new Error('an entry’s length changed while the archive was written');
      await push(dataDescriptor(item));
      written.push(item);
    }
    const cdOffset = offset;
    for (const item of written) await push(centralHeader(item));
    await push(endRecords(written.length, cdOffset, offset - cdOffset));
    out.end();
  };
  run().catch((error: unknown) => out.destroy(error as Error));
  return out;
};
