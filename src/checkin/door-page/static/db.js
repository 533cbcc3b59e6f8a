// The page's IndexedDB database: the device's credentials and settings, the lists' sync data
// (encrypted records, as the service sent them), what this device has seen since (overlay) and
// the queue of scans made offline.

const NAME = 'cal-door';
const VERSION = 1;

/** Store name → key path. */
const STORES = {
  settings: 'key',
  records: ['list_id', 'index'],
  revoked: ['list_id', 'index'],
  overlay: ['list_id', 'index'],
  queue: 'nonce',
};

function promised(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error ?? new Error('transaction aborted'));
  });
}

let opened = null;

export function openDatabase() {
  if (!opened) {
    const request = indexedDB.open(NAME, VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const [store, keyPath] of Object.entries(STORES)) {
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store, { keyPath });
      }
    };
    opened = promised(request);
  }
  return opened;
}

export async function get(store, key) {
  const db = await openDatabase();
  return promised(db.transaction(store).objectStore(store).get(key));
}

export async function getAll(store, range) {
  const db = await openDatabase();
  return promised(db.transaction(store).objectStore(store).getAll(range));
}

export async function count(store, range) {
  const db = await openDatabase();
  return promised(db.transaction(store).objectStore(store).count(range));
}

export async function put(store, value) {
  const db = await openDatabase();
  const transaction = db.transaction(store, 'readwrite');
  transaction.objectStore(store).put(value);
  return done(transaction);
}

export async function remove(store, key) {
  const db = await openDatabase();
  const transaction = db.transaction(store, 'readwrite');
  transaction.objectStore(store).delete(key);
  return done(transaction);
}

/** Several writes in one transaction: `writes` is a list of [store, 'put' | 'delete', value or key]. */
export async function writeAll(writes) {
  if (writes.length === 0) return;
  const db = await openDatabase();
  const transaction = db.transaction([...new Set(writes.map(([store]) => store))], 'readwrite');
  for (const [store, operation, value] of writes) {
    if (operation === 'put') transaction.objectStore(store).put(value);
    else transaction.objectStore(store).delete(value);
  }
  return done(transaction);
}

/** Every key of one list in the stores keyed by [list_id, index]. */
export function listRange(listId) {
  return IDBKeyRange.bound([listId, ''], [listId, '\uffff']);
}

export async function clearList(listId) {
  const db = await openDatabase();
  const transaction = db.transaction(['records', 'revoked', 'overlay'], 'readwrite');
  for (const store of ['records', 'revoked', 'overlay']) transaction.objectStore(store).delete(listRange(listId));
  return done(transaction);
}

export async function clearEverything() {
  const db = await openDatabase();
  const names = Object.keys(STORES);
  const transaction = db.transaction(names, 'readwrite');
  for (const store of names) transaction.objectStore(store).clear();
  return done(transaction);
}

export async function getSetting(key) {
  return (await get('settings', key))?.value;
}

export async function setSetting(key, value) {
  return put('settings', { key, value });
}
