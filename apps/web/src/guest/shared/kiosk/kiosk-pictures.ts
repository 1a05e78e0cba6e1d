/**
 * Camera pictures waiting in a kiosk's outbox: too big for local storage, they are kept
 * in IndexedDB under `<kiosk key>:<action id>` until the upload has gone through or was refused,
 * so a reload in the middle of a session sends them once more. Without IndexedDB (a private
 * window, a browser that refuses) every call answers "not kept" and the picture waits in memory.
 */
const DB_NAME = 'flashbulb-kiosk-pictures';
const STORE = 'pictures';

interface StoredPicture {
  readonly type: string;
  readonly bytes: ArrayBuffer;
}

const openDb = (): Promise<IDBDatabase> =>
  new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('no IndexedDB'));
      return;
    }
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
  });

const inStore = async <T>(
  mode: IDBTransactionMode,
  request: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> => {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const pending = request(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(pending.result);
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'));
    });
  } finally {
    db.close();
  }
};

const bytesOf = (picture: Blob): Promise<ArrayBuffer> =>
  typeof picture.arrayBuffer === 'function'
    ? picture.arrayBuffer()
    : new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error ?? new Error('read failed'));
        reader.readAsArrayBuffer(picture);
      });

/** Where a kiosk's waiting picture is kept. */
export const pictureKey = (kioskKey: string, actionId: string): string => `${kioskKey}:${actionId}`;

/** Keeps a picture; true when it is kept (false: no IndexedDB here, it waits in memory). */
export const keepPicture = async (key: string, picture: Blob): Promise<boolean> => {
  try {
    const stored: StoredPicture = { type: picture.type, bytes: await bytesOf(picture) };
    await inStore('readwrite', (store) => store.put(stored, key));
    return true;
  } catch {
    return false;
  }
};

/** The kept picture, or null when it is gone. */
export const keptPicture = async (key: string): Promise<Blob | null> => {
  try {
    const stored = (await inStore('readonly', (store) => store.get(key))) as
      StoredPicture | undefined;
    return stored ? new Blob([stored.bytes], { type: stored.type }) : null;
  } catch {
    return null;
  }
};

/** Forgets a picture (sent, refused, or its guest's session ended). */
export const dropPicture = async (key: string): Promise<void> => {
  try {
    await inStore('readwrite', (store) => store.delete(key));
  } catch {
    // nothing kept
  }
};

/** Forgets every kept picture (the guest's session ended: nothing of theirs stays). */
export const dropAllPictures = async (): Promise<void> => {
  try {
    await inStore('readwrite', (store) => store.clear());
  } catch {
    // nothing kept
  }
};
