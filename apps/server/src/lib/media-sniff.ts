/**
 * What a file really is, from its first bytes — never from its name or the Content-Type a client
 * claims (albums spec §5 lists the accepted kinds).
 */
export interface SniffedMedia {
  ext: 'jpg' | 'png' | 'gif' | 'mp4' | 'mov' | 'webm';
  contentType:
    'image/jpeg' | 'image/png' | 'image/gif' | 'video/mp4' | 'video/quicktime' | 'video/webm';
  mediaType: 'image' | 'video';
}

const startsWith = (head: Buffer, bytes: number[], offset = 0): boolean =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

export const sniffMedia = (head: Buffer): SniffedMedia | null => {
  if (startsWith(head, [0xff, 0xd8, 0xff]))
    return { ext: 'jpg', contentType: 'image/jpeg', mediaType: 'image' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { ext: 'png', contentType: 'image/png', mediaType: 'image' };
  }
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38]))
    return { ext: 'gif', contentType: 'image/gif', mediaType: 'image' };
  // ISO base media: a box size, then "ftyp", then an MP4-family brand.
  if (startsWith(head, [0x66, 0x74, 0x79, 0x70], 4)) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (/^(isom|iso2|iso4|iso5|iso6|mp41|mp42|avc1|M4V |MSNV|dash|f4v )$/.test(brand)) {
      return { ext: 'mp4', contentType: 'video/mp4', mediaType: 'video' };
    }
    // QuickTime, as cameras and phones write it.
    if (brand === 'qt  ') return { ext: 'mov', contentType: 'video/quicktime', mediaType: 'video' };
  }
  // Matroska's EBML header: WebM as browsers record it (the probe then checks it is a clip).
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]))
    return { ext: 'webm', contentType: 'video/webm', mediaType: 'video' };
  return null;
};
