import { useEffect, useMemo } from 'react';
import type { UploadFailure, UploadItem } from '../../../lib/uploads/upload-queue.ts';

/** A picked file's picture on the phone, for its row (freed when the row goes). */
function FilePreview({ file }: { file: File }) {
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img className="upload-thumb" src={url} alt="" />;
}

/**
 * The files a phone page is sending (guest album, roamer page): each with its name, status and
 * progress, and a failed one's reason with a button to try it again; with `previews`, each
 * picture beside its row.
 */
export function UploadList({
  items,
  statusText,
  failureText,
  retryLabel,
  onRetry,
  previews = false,
}: {
  items: readonly UploadItem[];
  statusText: (item: UploadItem) => string;
  failureText: (failure: UploadFailure | undefined) => string;
  retryLabel: string;
  onRetry: (id: number) => void;
  previews?: boolean;
}) {
  return (
    <ul className="upload-list">
      {items.map((item) => (
        <li key={item.id} className={`upload-item upload-item--${item.status}`}>
          {previews && <FilePreview file={item.file} />}
          <div className="upload-body">
            <div className="upload-line">
              <span className="upload-name">{item.file.name}</span>
              <span className="upload-status">{statusText(item)}</span>
            </div>
            <progress
              className="upload-progress"
              max={1}
              value={item.status === 'done' ? 1 : item.progress}
              aria-label={item.file.name}
            />
            {item.status === 'failed' && (
              <div className="upload-line">
                <span className="upload-error" role="alert">
                  {failureText(item.failure)}
                </span>
                <button type="button" onClick={() => onRetry(item.id)}>
                  {retryLabel}
                </button>
              </div>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
