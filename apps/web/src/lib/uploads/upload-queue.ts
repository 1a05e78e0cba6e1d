import { isPhotoFileName } from '@flashbulb/shared';

export type UploadStatus = 'waiting' | 'preparing' | 'uploading' | 'completing' | 'done' | 'failed';

/** Why a file failed: a message key of the API, or the storage's S3 error. */
export type UploadFailure =
  | { readonly kind: 'api'; readonly key: string }
  | { readonly kind: 'storage'; readonly code: string; readonly message: string };

export interface UploadItem {
  readonly id: number;
  readonly file: File;
  readonly status: UploadStatus;
  /** 0…1 of the bytes sent to storage. */
  readonly progress: number;
  readonly failure?: UploadFailure;
}

export interface UploadSnapshot {
  readonly items: readonly UploadItem[];
  /** Names of the files refused by extension (albums spec §5), latest drop only. */
  readonly refused: readonly string[];
}

export interface UploadStep {
  readonly setStatus: (status: 'preparing' | 'uploading' | 'completing') => void;
  readonly setProgress: (fraction: number) => void;
}

/** Uploads one file end to end; resolves when the photo exists, rejects with the failure. */
export type UploadRunner<C> = (file: File, step: UploadStep, context: C) => Promise<void>;

/** Files sent at the same time: enough to fill the pipe, few enough not to starve the page. */
export const PARALLEL_UPLOADS = 3;

/**
 * The console's upload queue, outside React so a running upload survives re-renders; the page
 * reads it with useSyncExternalStore.
 */
export class UploadQueue<C> {
  private snapshot: UploadSnapshot = { items: [], refused: [] };
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private running = 0;
  private context: C;

  constructor(
    context: C,
    private readonly runner: UploadRunner<C>,
    private readonly toFailure: (error: unknown) => UploadFailure,
    private readonly parallel = PARALLEL_UPLOADS,
  ) {
    this.context = context;
  }

  /** What the runner needs from the page (event, callbacks); the latest wins for the next file. */
  configure(context: C): void {
    this.context = context;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): UploadSnapshot => this.snapshot;

  /** Queue the files with an accepted extension (case-insensitive); list the others as refused. */
  add(files: readonly File[]): void {
    const accepted = files.filter((file) => isPhotoFileName(file.name));
    const refused = files.filter((file) => !isPhotoFileName(file.name)).map((file) => file.name);
    const items = accepted.map((file): UploadItem => ({
      id: this.nextId++,
      file,
      status: 'waiting',
      progress: 0,
    }));
    this.set({ items: [...this.snapshot.items, ...items], refused });
    this.pump();
  }

  retry(id: number): void {
    this.update(id, { status: 'waiting', progress: 0, failure: undefined });
    this.pump();
  }

  /** Forget finished files (done ones; failed ones stay until retried or cleared with them). */
  clearFinished(): void {
    this.set({
      items: this.snapshot.items.filter(
        (item) => item.status !== 'done' && item.status !== 'failed',
      ),
      refused: [],
    });
  }

  private pump(): void {
    while (this.running < this.parallel) {
      const next = this.snapshot.items.find((item) => item.status === 'waiting');
      if (!next) return;
      this.running += 1;
      this.update(next.id, { status: 'preparing' });
      void this.run(next);
    }
  }

  private async run(item: UploadItem): Promise<void> {
    try {
      await this.runner(
        item.file,
        {
          setStatus: (status) => this.update(item.id, { status }),
          setProgress: (progress) => this.update(item.id, { progress }),
        },
        this.context,
      );
      this.update(item.id, { status: 'done', progress: 1 });
    } catch (error) {
      this.update(item.id, { status: 'failed', failure: this.toFailure(error) });
    } finally {
      this.running -= 1;
      this.pump();
    }
  }

  private update(id: number, patch: Partial<Omit<UploadItem, 'id' | 'file'>>): void {
    this.set({
      ...this.snapshot,
      items: this.snapshot.items.map((item) => {
        if (item.id !== id) return item;
        const next = { ...item, ...patch };
        if (patch.failure === undefined && 'failure' in patch) delete next.failure;
        return next;
      }),
    });
  }

  private set(snapshot: UploadSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}
