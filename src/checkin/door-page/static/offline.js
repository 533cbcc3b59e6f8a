// Deciding at the door without a connection, from the list's sync data (docs/checkin.md,
// "Offline sync"). Each record is found by an HMAC of the scanned secret and decrypted with a key
// derived from that secret: the device can read only the tickets it has scanned.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function base64urlDecode(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function base64urlEncode(bytes) {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const indexKeys = new Map();

/** `base64url(HMAC-SHA-256(index_key, secret))`: where the secret's record is filed. */
export async function indexOf(secret, indexKey) {
  let key = indexKeys.get(indexKey);
  if (!key) {
    key = await crypto.subtle.importKey('raw', base64urlDecode(indexKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    indexKeys.set(indexKey, key);
  }
  return base64urlEncode(await crypto.subtle.sign('HMAC', key, encoder.encode(secret)));
}

/** The attendee of a record, or null when this secret does not open it. */
export async function decryptRecord(secret, listId, data) {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  const key = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('cal-checkin-v1'), info: encoder.encode(`list:${listId}`) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['decrypt'],
  );
  const bytes = base64urlDecode(data);
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, key, bytes.slice(12));
    return JSON.parse(decoder.decode(plain));
  } catch {
    return null;
  }
}

/**
 * The answer the service would give, from what this device knows:
 * `attendee` the decrypted record (null when none), `revoked` whether its index was revoked,
 * `state` {inside, entries, last_entry} (the record's, or newer from this device's own scans),
 * `list` the CheckinList, `window` {from, until}, `type` entry|exit, `at` the scan's Date.
 * Returns {ok: true} or {ok: false, reason, last?}.
 */
export function decide({ attendee, revoked, state, list, window, type, at }) {
  if (!attendee) return { ok: false, reason: revoked ? 'revoked' : 'invalid' };
  if (!attendee.valid) return { ok: false, reason: attendee.refusal ?? 'invalid' };
  const time = at.getTime();
  if (window?.from && time < Date.parse(window.from)) return { ok: false, reason: 'invalid_time' };
  if (window?.until && time > Date.parse(window.until)) return { ok: false, reason: 'invalid_time' };
  if (type === 'exit') return { ok: true };
  if (list.allow_multiple_entries || !state.entries) return { ok: true };
  if (!state.inside && list.allow_entry_after_exit) return { ok: true };
  return { ok: false, reason: 'already_redeemed', last: state.last_entry ? { datetime: state.last_entry, type: 'entry' } : undefined };
}

/** The attendee's state after a successful scan of `type` at `at`. */
export function afterScan(state, type, at) {
  if (type === 'exit') return { ...state, inside: false };
  return { inside: true, entries: (state.entries ?? 0) + 1, last_entry: at.toISOString() };
}
