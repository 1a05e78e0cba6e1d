/**
 * The direct upload to storage (albums spec §7.1): a multipart POST of the grant's fields, then the
 * file last (S3 ignores fields after `file`). XMLHttpRequest rather than fetch, for upload
 * progress. Any 2xx is success (the grant asks for 201); a failure carries the S3 XML Code and
 * Message when the store sent them.
 */

export class StorageUploadError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status: number) {
    super(message);
    this.name = 'StorageUploadError';
    this.code = code;
    this.status = status;
  }
}

/** `<Error><Code>…</Code><Message>…</Message></Error>` → code and message (empty when absent). */
export const parseS3Error = (xml: string): { code: string; message: string } => {
  const tag = (name: string) =>
    new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml)?.[1]?.trim() ?? '';
  return { code: tag('Code'), message: tag('Message') };
};

export interface StorageGrant {
  readonly url: string;
  readonly fields: Readonly<Record<string, string>>;
}

export const postToStorage = (
  grant: StorageGrant,
  file: Blob,
  fileName: string,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> =>
  new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
    form.append('file', file, fileName);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', grant.url);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      const { code, message } = parseS3Error(
        typeof xhr.responseText === 'string' ? xhr.responseText : '',
      );
      reject(new StorageUploadError(code || `HTTP ${xhr.status}`, message, xhr.status));
    };
    xhr.onerror = () => reject(new StorageUploadError('NetworkError', '', 0));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
