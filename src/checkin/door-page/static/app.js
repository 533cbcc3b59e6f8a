// The door page: pair the device, choose the list, scan continuously (camera or a keyboard-wedge
// scanner), answer with a banner, a sound and an icon, undo, search, exits, walk-in sales, and
// work on without a connection (docs/door-page.md).

import { ApiClient, NetworkError, isMissingRoute, isUnavailable } from './api.js';
import * as db from './db.js';
import { Feedback } from './feedback.js';
import { afterScan, decide, decryptRecord, indexOf } from './offline.js';
import { OUTCOMES, iconElement, outcomeOf } from './outcomes.js';
import { Scanner } from './scanner.js';

const SOFTWARE = 'cal door page 1';
const SYNC_EVERY_MS = 60_000;
/** How often the page looks whether to upload, sync or try the service again. */
const TICK_MS = 15_000;
/** How long the banner stays when no other code comes; a new answer replaces it at once. */
const ANSWER_MS = { ok: 3000, error: 5000 };
/**
 * A code read again within this long of its last reading is ignored (not sent again): a ticket
 * held in front of the camera is answered once. A different code is read at once.
 */
const SAME_CODE_MS = 3000;
/** A keyboard-wedge scanner types a code and Enter; keys further apart than this start a new code. */
const WEDGE_GAP_MS = 1500;
const SELL_MAX_QUANTITY = 20;

const $ = (id) => document.getElementById(id);

const state = {
  api: null,
  apiBase: '/cal/tickets/v1',
  device: null,
  list: null,
  sync: null,
  mode: 'entry',
  view: null,
  online: navigator.onLine,
  answering: false,
  /** code → when it was last read (camera or scanner), for SAME_CODE_MS. */
  recent: new Map(),
  /** Checks run one after another, in the order the codes were read. */
  checks: Promise.resolve(),
  /** 'camera' or 'keyboard' (a USB/Bluetooth scanner typing codes). */
  input: 'camera',
  wedge: { text: '', at: 0 },
  /** Whether the service has POST /checkin/annul: null until asked. */
  canAnnul: null,
  /** The last successful answer, for Undo: {scan, offline, before, index, attendee}. */
  undoable: null,
  counts: { admitted: 0, refused: 0 },
  sale: { tickets: [], ticketId: null, quantity: 1, nonce: null, busy: false },
  lastSync: 0,
  syncing: null,
  uploading: null,
  wakeLock: null,
  answerTimer: null,
};

const scanner = new Scanner($('video'), (text) => onCodeRead(text));
const feedback = new Feedback();

// ---------- views ----------

const VIEWS = ['pair', 'lists', 'scan', 'search', 'code', 'sell', 'menu'];
/** `pair-scan`: the camera reads a device's initialization token instead of tickets. */
const TOOL_OF_VIEW = { scan: 'tool-scan', search: 'tool-search', code: 'tool-code', sell: 'tool-sell', menu: 'tool-menu' };

async function show(view) {
  if (state.answering) hideAnswer();
  // Back on the scanner after another tab: the ticket still in front of it is a new question.
  if (view !== state.view) state.recent.clear();
  state.view = view;
  const section = view === 'pair-scan' ? 'scan' : view;
  for (const name of VIEWS) $(`${name}-view`).hidden = name !== section;
  $('camera-cancel').hidden = view !== 'pair-scan';
  $('toolbar').hidden = !state.device || !state.list || view === 'pair' || view === 'pair-scan' || view === 'lists';
  for (const [name, tool] of Object.entries(TOOL_OF_VIEW)) $(tool).setAttribute('aria-current', String(name === view));
  const wedge = view === 'scan' && state.input === 'keyboard';
  $('wedge-ready').hidden = !wedge;
  $('video').hidden = wedge;
  $('viewfinder').hidden = wedge;
  if (section === 'scan' && !wedge) await startCamera();
  else if (wedge) {
    scanner.close();
    renderTorch();
    void keepScreenOn();
  } else scanner.stop();
  // A button left focused would take the scanner's Enter as a tap.
  if (section === 'scan' && document.activeElement instanceof HTMLElement) document.activeElement.blur();
  if (view === 'search') $('search-input').focus();
  if (view === 'code') $('code-input').focus();
  if (view === 'sell') void loadSaleTickets();
  if (view === 'menu') renderDeviceInfo();
}

/** Keeps the screen on while the camera scans (where the browser can); released when the page is hidden. */
async function keepScreenOn() {
  try {
    if (navigator.wakeLock && !state.wakeLock) {
      state.wakeLock = await navigator.wakeLock.request('screen');
      state.wakeLock.addEventListener('release', () => {
        state.wakeLock = null;
      });
    }
  } catch {
    // Refused (battery saver, no user gesture yet): the screen dims as usual.
  }
}

async function startCamera() {
  const message = $('camera-message');
  try {
    await scanner.open();
    message.hidden = true;
    scanner.start();
    renderTorch();
    void keepScreenOn();
  } catch (error) {
    message.textContent = `No camera: ${error?.message ?? error}. Use Search, Code, or a scanner (Menu → Input).`;
    message.hidden = false;
  }
}

function renderTorch() {
  const button = $('torch-toggle');
  button.hidden = state.input === 'keyboard' || !scanner.hasTorch;
  button.setAttribute('aria-pressed', String(scanner.torch));
  button.textContent = scanner.torch ? 'Light on' : 'Light';
}

function renderHeader() {
  $('list-name').textContent = state.list
    ? `${state.list.name}${state.device ? ` · ${state.device.name}` : ''}`
    : state.device
      ? state.device.name
      : 'Not paired';
  const badge = $('mode-badge');
  badge.textContent = state.mode === 'exit' ? 'Exit' : 'Entry';
  badge.className = `badge ${state.mode}`;
  badge.hidden = !state.list;
  const toggle = $('mode-toggle');
  toggle.textContent = state.mode === 'exit' ? 'Exit mode' : 'Entry mode';
  toggle.setAttribute('aria-pressed', String(state.mode === 'exit'));
  const network = $('network');
  network.dataset.online = String(state.online);
  network.textContent = state.online ? 'Online' : 'Offline';
  const mute = $('mute-toggle');
  mute.setAttribute('aria-pressed', String(feedback.muted));
  mute.textContent = feedback.muted ? 'Muted' : 'Sound on';
  const input = $('input-toggle');
  input.setAttribute('aria-pressed', String(state.input === 'keyboard'));
  input.textContent = state.input === 'keyboard' ? 'Input: USB/Bluetooth scanner' : 'Input: camera';
  $('tool-sell').hidden = state.list?.allow_sales !== true;
}

async function renderQueue() {
  const waiting = await db.count('queue');
  const badge = $('queue-count');
  badge.hidden = waiting === 0;
  badge.textContent = `${waiting} to upload`;
}

async function renderSyncStatus() {
  if (!state.list) return;
  const records = await db.count('records', db.listRange(state.list.id));
  const when = state.sync?.synced_at
    ? new Date(state.sync.synced_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : 'never';
  const { admitted, refused } = state.counts;
  $('sync-status').textContent = `Here: ${admitted} admitted, ${refused} refused · offline data: ${records} tickets, synced ${when}`;
}

function renderDeviceInfo() {
  const device = state.device;
  $('device-info').textContent = device
    ? `${device.name} (device ${device.device_id}) · list: ${state.list?.name ?? 'none'} · decoder: ${scanner.decoderName || 'not started'}`
    : '';
}

function setOnline(online) {
  if (state.online === online) return;
  state.online = online;
  renderHeader();
  if (online) void backgroundWork();
}

// ---------- the answer ----------

function formatTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * The banner over the camera: colour, icon, words, name and ticket type. It never stops the
 * scanner: the next code replaces it at once; it goes by itself, or with a tap.
 */
function showAnswer({ ok, type, attendee, reason, last, offline, detail, outcome: named, undo }) {
  const outcome = named ? { key: named, ...OUTCOMES[named] } : outcomeOf(ok, type, reason);
  const answer = $('answer');
  answer.dataset.state = outcome.tone;
  answer.dataset.reason = ok ? 'ok' : (reason ?? outcome.key);
  answer.dataset.outcome = outcome.key;
  answer.dataset.sound = outcome.sound ?? 'none';
  $('answer-icon').replaceChildren(iconElement(outcome.icon));
  $('answer-icon').dataset.icon = outcome.icon;
  $('answer-title').textContent = outcome.words;
  $('answer-name').textContent = attendee?.name ?? '';
  $('answer-ticket').textContent = attendee?.ticket_title ?? '';
  const details = [];
  if (!ok && reason === 'already_redeemed' && last?.datetime) {
    details.push(`${last.type === 'exit' ? 'Left' : 'Entered'} at ${formatTime(last.datetime)}${last.gate ? ` (${last.gate})` : ''}`);
  }
  if (ok && type === 'exit') details.push('Exit recorded');
  if (detail) details.push(detail);
  if (offline) details.push(ok ? 'Offline: decided on this device, uploaded when back online' : 'Offline: decided on this device');
  $('answer-reason').textContent = details.join(' · ');
  state.undoable = undo ?? null;
  renderUndo();
  answer.hidden = false;
  // Restart the banner's entrance, so that two green answers in a row read as two.
  answer.classList.remove('fresh');
  void answer.offsetWidth;
  answer.classList.add('fresh');
  state.answering = true;
  clearTimeout(state.answerTimer);
  state.answerTimer = setTimeout(hideAnswer, outcome.tone === 'ok' ? ANSWER_MS.ok : ANSWER_MS.error);
  if (outcome.sound) feedback.give(outcome.sound);
}

function renderUndo() {
  const undo = state.undoable;
  // Offline scans still in the queue are undone here; uploaded ones need the service's annul.
  $('answer-undo').hidden = !undo || (!undo.offline && state.canAnnul !== true);
}

function hideAnswer() {
  clearTimeout(state.answerTimer);
  $('answer').hidden = true;
  state.answering = false;
  state.undoable = null;
}

/** Whether the service can annul scans (POST /checkin/annul): asked once with an empty body. */
async function probeAnnul() {
  if (state.canAnnul !== null || !state.api) return;
  try {
    const { status, body } = await state.api.request('POST', 'checkin/annul', { body: {}, timeoutMs: 5000 });
    if (isUnavailable(status)) return;
    state.canAnnul = !isMissingRoute(status, body) && status !== 401;
    renderUndo();
  } catch {
    // Offline: asked again later.
  }
}

/** Undo of the last admitted scan: out of the queue when it was never uploaded, else annulled by the service. */
async function undoLast() {
  const undo = state.undoable;
  if (!undo) return;
  $('answer-undo').disabled = true;
  try {
    const queued = await db.get('queue', undo.scan.nonce);
    if (queued) {
      await db.remove('queue', undo.scan.nonce);
      await restoreLocal(undo);
      await renderQueue();
      return undone(undo, 'Removed from the upload queue');
    }
    const { status, body } = await state.api.annul(undo.scan.nonce);
    if (status === 401 && (await onUnauthorized(body))) return;
    if (isMissingRoute(status, body)) {
      state.canAnnul = false;
      return showAnswer({ ok: false, outcome: 'error', attendee: undo.attendee, detail: 'This service cannot undo scans' });
    }
    if (status !== 200) {
      return showAnswer({ ok: false, outcome: 'error', attendee: undo.attendee, detail: body?.message ?? `Undo failed (${status})` });
    }
    await restoreLocal(undo, body.attendee);
    return undone(undo, 'Annulled: the ticket may enter again');
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    setOnline(false);
    showAnswer({ ok: false, outcome: 'error', attendee: undo.attendee, detail: 'No connection: undo needs the service' });
  } finally {
    $('answer-undo').disabled = false;
  }
}

function undone(undo, detail) {
  state.counts.admitted = Math.max(0, state.counts.admitted - 1);
  state.recent.delete(undo.scan.secret);
  showAnswer({ ok: false, outcome: 'undone', attendee: undo.attendee, detail });
  void renderSyncStatus();
}

/** What this device knows of the attendee goes back to before the scan (or to the service's word). */
async function restoreLocal(undo, attendee) {
  if (!undo.index) return;
  if (attendee && typeof attendee.entries === 'number') {
    await remember(undo.index, { inside: attendee.inside, entries: attendee.entries, last_entry: undo.before.last_entry ?? null });
  } else await remember(undo.index, undo.before);
}

// ---------- pairing ----------

function tokenFrom(text) {
  const value = text.trim();
  try {
    const url = new URL(value);
    const fromHash = new URLSearchParams(url.hash.slice(1)).get('token');
    return fromHash ?? url.searchParams.get('token') ?? value;
  } catch {
    return value;
  }
}

async function pair(token) {
  const error = $('pair-error');
  error.hidden = true;
  $('pair-submit').disabled = true;
  try {
    const client = new ApiClient(state.apiBase);
    const { status, body } = await client.initialize(token, navigator.userAgent.slice(0, 120), SOFTWARE);
    if (status !== 201) {
      error.textContent = body?.message ?? `Pairing failed (${status})`;
      error.hidden = false;
      return;
    }
    state.device = { device_id: body.device_id, api_token: body.api_token, name: body.name, list_ids: body.list_ids };
    await db.setSetting('device', state.device);
    state.api = new ApiClient(state.apiBase, state.device.api_token);
    $('pair-token').value = '';
    history.replaceState(null, '', location.pathname);
    await chooseList();
  } catch (failure) {
    error.textContent = failure instanceof NetworkError ? 'No connection: pairing needs the service.' : String(failure);
    error.hidden = false;
  } finally {
    $('pair-submit').disabled = false;
  }
}

async function unpair(message) {
  scanner.close();
  await db.clearEverything();
  Object.assign(state, { device: null, list: null, sync: null, api: null });
  renderHeader();
  await renderQueue();
  const error = $('pair-error');
  error.textContent = message ?? '';
  error.hidden = !message;
  await show('pair');
}

/** The device's token was revoked: nothing it holds is any use any more. */
async function onUnauthorized(body) {
  if (body?.code === 'device-token-invalid') {
    await unpair('This device was revoked or its pairing expired. Pair it again.');
    return true;
  }
  return false;
}

// ---------- lists ----------

async function chooseList() {
  renderHeader();
  await show('lists');
  const items = $('lists');
  const error = $('lists-error');
  items.replaceChildren();
  error.hidden = true;
  $('lists-retry').hidden = true;
  const lists = [];
  for (const id of state.device.list_ids) {
    try {
      const { status, body } = await state.api.list(id);
      if (status === 200) lists.push(body);
      else if (status === 401 && (await onUnauthorized(body))) return;
    } catch {
      const saved = await db.getSetting(`sync:${id}`);
      if (saved?.list) lists.push(saved.list);
    }
  }
  if (lists.length === 0) {
    error.textContent = 'No list is available to this device (offline, or its lists were deleted).';
    error.hidden = false;
    $('lists-retry').hidden = false;
    return;
  }
  if (lists.length === 1) return selectList(lists[0]);
  for (const list of lists) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.listId = String(list.id);
    button.append(list.name);
    const event = document.createElement('small');
    event.className = 'event';
    event.textContent = eventLine(list);
    const counts = document.createElement('small');
    counts.textContent = `${list.checkin_count}/${list.position_count} checked in`;
    button.append(event, counts);
    button.addEventListener('click', () => void selectList(list));
    item.append(button);
    items.append(item);
  }
}

/** "Door night · Sat 2 May, 20:00": the event's title and its start, in the event's own wall-clock time. */
function eventLine(list) {
  const event = list.event;
  if (!event?.title) return `Event ${list.post_id}`;
  const when = wallClock(event.start_date);
  return when ? `${event.title} · ${when}` : event.title;
}

/** A wall-clock date-time ("2027-05-01 20:00:00") as the venue reads it, whatever the phone's time zone. */
function wallClock(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(text ?? '');
  if (!match) return '';
  const [, year, month, day, hour, minute] = match.map(Number);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  const options = { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
  if (year !== new Date().getFullYear()) options.year = 'numeric';
  return date.toLocaleString([], options);
}

async function selectList(list) {
  state.list = list;
  state.sync = (await db.getSetting(`sync:${list.id}`)) ?? null;
  await db.setSetting('list', list);
  state.counts = { admitted: 0, refused: 0 };
  state.sale = { tickets: [], ticketId: null, quantity: 1, nonce: null, busy: false };
  renderHeader();
  await show('scan');
  await renderSyncStatus();
  void backgroundWork();
  void probeAnnul();
}

// ---------- sync and upload ----------

async function syncList() {
  const list = state.list;
  if (!list || !state.api) return;
  const started = new Date().toISOString();
  let meta = state.sync;
  let cursor = meta?.cursor;
  for (let page = 0; page < 1000; page += 1) {
    const { status, body } = await state.api.sync(list.id, cursor);
    if (status === 401 && (await onUnauthorized(body))) return;
    if (status !== 200) throw new Error(`sync answered ${status}`);
    if (meta?.index_key && meta.index_key !== body.index_key) {
      // A new key files every record anew: start again from nothing.
      await db.clearList(list.id);
      meta = null;
      cursor = undefined;
      continue;
    }
    const writes = [];
    for (const record of body.attendees) {
      writes.push(['records', 'put', { list_id: list.id, index: record.index, data: record.data, synced_at: started }]);
      writes.push(['revoked', 'delete', [list.id, record.index]]);
    }
    for (const index of body.revoked) {
      writes.push(['records', 'delete', [list.id, index]]);
      writes.push(['revoked', 'put', { list_id: list.id, index }]);
    }
    meta = {
      list: body.list,
      window: body.window,
      tickets: body.tickets,
      index_key: body.index_key,
      cursor: body.cursor,
      synced_at: started,
    };
    writes.push(['settings', 'put', { key: `sync:${list.id}`, value: meta }]);
    await db.writeAll(writes);
    cursor = body.cursor;
    if (!body.more) break;
  }
  if (state.list?.id === list.id) {
    state.sync = meta;
    state.list = meta.list;
    renderHeader();
  }
}

/** Uploads the scans made offline, oldest first, as the service's own `force` redeems (one run at a time). */
function uploadQueue() {
  state.uploading ??= uploadQueued().finally(() => {
    state.uploading = null;
  });
  return state.uploading;
}

async function uploadQueued() {
  if (!state.api) return;
  const queued = (await db.getAll('queue')).sort((a, b) => a.datetime.localeCompare(b.datetime));
  for (const scan of queued) {
    const { status, body } = await state.api.redeem(scan, { force: true });
    if (status === 401 && (await onUnauthorized(body))) return;
    if (isUnavailable(status)) throw new NetworkError(`upload answered ${status}`);
    // 201: recorded. A refusal even with force (the list was deleted, a bad field) will not
    // change by retrying: it leaves the queue either way.
    await db.remove('queue', scan.nonce);
    await renderQueue();
  }
}

/** Upload first, then sync: the sync then includes this device's own scans. */
function backgroundWork() {
  if (state.syncing) return state.syncing;
  if (navigator.onLine === false) {
    setOnline(false);
    return Promise.resolve();
  }
  state.syncing = (async () => {
    try {
      await uploadQueue();
      await syncList();
      state.lastSync = Date.now();
      setOnline(true);
    } catch (error) {
      if (error instanceof NetworkError) setOnline(false);
    } finally {
      state.syncing = null;
      await renderQueue();
      await renderSyncStatus();
    }
  })();
  return state.syncing;
}

// ---------- scanning ----------

/** Whether `code` was read within SAME_CODE_MS; either way it counts as read now. */
function readRecently(code) {
  const now = Date.now();
  for (const [known, at] of state.recent) if (now - at > SAME_CODE_MS) state.recent.delete(known);
  const seen = state.recent.has(code);
  state.recent.set(code, now);
  return seen;
}

/** Codes printed in upper case may be typed (or sent by a scanner) in lower case: the same code. */
function normalizeCode(text) {
  const code = text.trim();
  return /^[0-9a-z]{16,64}$/i.test(code) ? code.toUpperCase() : code;
}

async function onCodeRead(text) {
  if (state.view === 'pair-scan') {
    scanner.stop();
    const token = tokenFrom(text);
    $('pair-token').value = token;
    await show('pair');
    await pair(token);
    return;
  }
  if (state.view !== 'scan') return;
  const secret = normalizeCode(text);
  if (!secret || readRecently(secret)) return;
  void enqueueCheck(secret);
}

/** Checks one after another (a second code read while the first is answered waits its turn, briefly). */
function enqueueCheck(secret) {
  state.checks = state.checks
    .then(() => check(secret))
    .catch((error) => {
      showAnswer({ ok: false, outcome: 'error', detail: String(error?.message ?? error) });
    });
  return state.checks;
}

/** A keyboard-wedge scanner: characters then Enter, anywhere on the scan view, no tap needed. */
function onKey(event) {
  if (state.view !== 'scan' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const now = Date.now();
  if (now - state.wedge.at > WEDGE_GAP_MS) state.wedge.text = '';
  state.wedge.at = now;
  if (event.key === 'Enter' || event.key === 'Tab') {
    const text = state.wedge.text;
    state.wedge.text = '';
    if (!text) return;
    // Not a tap on whatever button has the focus.
    event.preventDefault();
    const secret = normalizeCode(text);
    if (secret && !readRecently(secret)) void enqueueCheck(secret);
    return;
  }
  if (event.key.length === 1) {
    state.wedge.text += event.key;
    event.preventDefault();
  }
}

/** What this device holds about `secret` on the current list. */
async function localKnowledge(secret) {
  const list = state.list;
  if (!state.sync?.index_key) return { attendee: null, revoked: false, state: {}, index: null };
  const index = await indexOf(secret, state.sync.index_key);
  const [record, revoked, overlay] = await Promise.all([
    db.get('records', [list.id, index]),
    db.get('revoked', [list.id, index]),
    db.get('overlay', [list.id, index]),
  ]);
  const attendee = record ? await decryptRecord(secret, list.id, record.data) : null;
  let known = attendee ? { inside: attendee.inside, entries: attendee.entries, last_entry: attendee.last_entry } : {};
  if (overlay && (!record || overlay.at > record.synced_at)) known = overlay.state;
  return { attendee, revoked: Boolean(revoked), state: known, index };
}

async function remember(index, known) {
  if (index) await db.put('overlay', { list_id: state.list.id, index, state: known, at: new Date().toISOString() });
}

/** Redeems `secret` online, or decides here and queues the scan when the service cannot be reached. */
async function check(secret) {
  if (!state.list) return;
  const scan = { nonce: crypto.randomUUID(), secret, list_id: state.list.id, type: state.mode, datetime: new Date().toISOString() };
  try {
    if (state.online && navigator.onLine !== false) {
      try {
        // Scans made offline go first: the service then answers knowing them.
        if ((await db.count('queue')) > 0) await uploadQueue();
        const { status, body } = await state.api.redeem(scan, { timeoutMs: 5000 });
        if (!isUnavailable(status)) {
          setOnline(true);
          if (status === 401 && (await onUnauthorized(body))) return;
          await answerOnline(secret, scan, status, body);
          return;
        }
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        setOnline(false);
      }
    }
    await answerOffline(secret, scan);
  } finally {
    void renderSyncStatus();
  }
}

async function answerOnline(secret, scan, status, body) {
  if (status === 201 && body?.status === 'ok') {
    const local = await localKnowledge(secret).catch(() => null);
    if (local?.index)
      await remember(local.index, {
        inside: body.attendee.inside,
        entries: body.attendee.entries,
        last_entry: scan.type === 'entry' ? scan.datetime : local.state.last_entry,
      });
    state.counts.admitted += 1;
    const undo = { scan, offline: false, before: local?.state ?? {}, index: local?.index ?? null, attendee: body.attendee };
    showAnswer({ ok: true, type: scan.type, attendee: body.attendee, undo });
    if (state.canAnnul === null) void probeAnnul();
    return;
  }
  state.counts.refused += 1;
  const reason = body?.reason ?? body?.data?.reason;
  if (!reason) {
    // Not a refusal of the ticket (a code too long to be one, a list this device lost): say what the service said.
    showAnswer({ ok: false, type: scan.type, reason: 'invalid', detail: body?.message ?? `HTTP ${status}` });
    return;
  }
  // The service names who it refused (data.attendee); an older service does not: the offline record, when this device holds it, does.
  let attendee = body?.data?.attendee ?? body?.attendee ?? null;
  if (!attendee && reason !== 'invalid') attendee = (await localKnowledge(secret).catch(() => null))?.attendee ?? null;
  showAnswer({ ok: false, type: scan.type, reason, last: body?.data?.last, attendee });
}

async function answerOffline(secret, scan) {
  const local = await localKnowledge(secret);
  const decision = decide({
    attendee: local.attendee,
    revoked: local.revoked,
    state: local.state,
    list: state.sync?.list ?? state.list,
    window: state.sync?.window,
    type: scan.type,
    at: new Date(scan.datetime),
  });
  let undo;
  if (decision.ok) {
    await db.put('queue', scan);
    await remember(local.index, afterScan(local.state, scan.type, new Date(scan.datetime)));
    await renderQueue();
    state.counts.admitted += 1;
    undo = { scan, offline: true, before: local.state, index: local.index, attendee: local.attendee };
  } else state.counts.refused += 1;
  showAnswer({
    ok: decision.ok,
    type: scan.type,
    reason: decision.reason,
    last: decision.last,
    attendee: local.attendee,
    offline: true,
    undo,
  });
}

// ---------- search ----------

let searchTimer = null;
let searchSeq = 0;

async function runSearch(text) {
  const message = $('search-message');
  const results = $('search-results');
  const seq = (searchSeq += 1);
  if (text.length < 3) {
    results.replaceChildren();
    message.textContent = 'Type 3 characters or more.';
    return;
  }
  if (!state.online && navigator.onLine === false) {
    message.textContent = 'Search needs a connection: this device keeps no readable list of names. Scan the QR code or type its code.';
    return;
  }
  message.textContent = 'Searching…';
  try {
    const { status, body } = await state.api.search(state.list.id, text);
    if (seq !== searchSeq) return;
    if (status === 401 && (await onUnauthorized(body))) return;
    if (status !== 200) {
      message.textContent = body?.message ?? `Search failed (${status})`;
      return;
    }
    setOnline(true);
    renderResults(body.results ?? []);
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    setOnline(false);
    message.textContent = 'No connection: search needs the service. Scan the QR code or type its code.';
  }
}

function renderResults(found) {
  const message = $('search-message');
  const results = $('search-results');
  message.textContent = found.length === 0 ? 'Nobody found.' : found.length === 20 ? 'The first 20: type more to narrow.' : '';
  results.replaceChildren(
    ...found.map((attendee) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.attendeeId = String(attendee.id);
      button.append(attendee.name ?? `Attendee ${attendee.id}`);
      const small = document.createElement('small');
      small.textContent = `${attendee.ticket_title ?? ''} · order ${attendee.order_id ?? '–'} · ${attendee.inside ? 'inside' : attendee.entries ? 'left' : 'not yet in'}`;
      button.append(small);
      button.addEventListener('click', () => void checkFromSearch(attendee));
      item.append(button);
      return item;
    }),
  );
}

async function checkFromSearch(attendee) {
  if (!attendee.checkin_secret) return;
  await enqueueCheck(attendee.checkin_secret);
}

// ---------- walk-in sales ----------

/** "30.00" × 2 → "60.00": in minor units, with the decimals the price has (the currency's). */
function multiplyPrice(price, quantity) {
  const [whole, fraction = ''] = String(price).split('.');
  const minor = BigInt(`${whole}${fraction}`) * BigInt(quantity);
  const digits = minor.toString().padStart(fraction.length + 1, '0');
  return fraction.length ? `${digits.slice(0, -fraction.length)}.${digits.slice(-fraction.length)}` : digits;
}

function isZero(amount) {
  return !/[1-9]/.test(String(amount));
}

async function loadSaleTickets() {
  const message = $('sell-tickets-message');
  $('sell-result').hidden = true;
  $('sell-error').hidden = true;
  message.textContent = 'Loading the tickets on sale…';
  try {
    const { status, body } = await state.api.saleTickets(state.list.id);
    if (status === 401 && (await onUnauthorized(body))) return;
    if (isMissingRoute(status, body) || status === 403) {
      // An older service, or the list no longer allows sales: no Sell tab.
      message.textContent = status === 403 ? (body?.message ?? 'This list does not allow sales.') : 'This service cannot sell at the door.';
      state.list = { ...state.list, allow_sales: false };
      $('tool-sell').hidden = true;
      state.sale.tickets = [];
      renderSale();
      return;
    }
    if (status !== 200) {
      message.textContent = body?.message ?? `Could not load the tickets (${status})`;
      return;
    }
    setOnline(true);
    state.sale.tickets = Array.isArray(body) ? body : (body?.tickets ?? []);
    if (!state.sale.tickets.some((ticket) => ticket.id === state.sale.ticketId)) state.sale.ticketId = state.sale.tickets[0]?.id ?? null;
    message.textContent = state.sale.tickets.length === 0 ? 'No ticket of this list is on sale now.' : '';
    renderSale();
  } catch (error) {
    if (!(error instanceof NetworkError)) throw error;
    setOnline(false);
    message.textContent = 'No connection: selling needs the service.';
  }
}

function renderSale() {
  const sale = state.sale;
  const ticket = sale.tickets.find((row) => row.id === sale.ticketId) ?? null;
  const most = Math.min(SELL_MAX_QUANTITY, ticket?.available ?? SELL_MAX_QUANTITY);
  sale.quantity = Math.max(1, Math.min(sale.quantity, most || 1));
  $('sell-tickets').replaceChildren(
    ...sale.tickets.map((row) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.ticketId = String(row.id);
      button.setAttribute('aria-pressed', String(row.id === sale.ticketId));
      button.disabled = row.available === 0;
      button.append(row.title);
      const small = document.createElement('small');
      small.textContent = `${row.price} ${row.currency}${row.available === null || row.available === undefined ? '' : ` · ${row.available} left`}`;
      button.append(small);
      button.addEventListener('click', () => {
        sale.ticketId = row.id;
        sale.nonce = null;
        renderSale();
      });
      item.append(button);
      return item;
    }),
  );
  $('sell-quantity').textContent = String(sale.quantity);
  $('sell-less').disabled = sale.quantity <= 1;
  $('sell-more').disabled = !ticket || sale.quantity >= most;
  const total = ticket ? multiplyPrice(ticket.price, sale.quantity) : null;
  $('sell-total').textContent = ticket ? `Total ${total} ${ticket.currency}` : '';
  const free = document.querySelector('input[name="payment"][value="free"]');
  free.disabled = !ticket || !isZero(total);
  if (free.disabled && free.checked) document.querySelector('input[name="payment"][value="cash"]').checked = true;
  if (ticket && isZero(total)) free.checked = true;
  $('sell-submit').disabled = !ticket || sale.busy;
}

async function sell() {
  const sale = state.sale;
  const ticket = sale.tickets.find((row) => row.id === sale.ticketId);
  if (!ticket || sale.busy) return;
  const error = $('sell-error');
  error.hidden = true;
  // One nonce per sale: a retry after a lost answer sells once.
  sale.nonce ??= crypto.randomUUID();
  const name = $('sell-name').value.trim();
  const body = {
    list_id: state.list.id,
    ticket_id: ticket.id,
    quantity: sale.quantity,
    payment_method: document.querySelector('input[name="payment"]:checked')?.value ?? 'cash',
    admit: true,
    nonce: sale.nonce,
    ...(name ? { purchaser: { name } } : {}),
  };
  sale.busy = true;
  renderSale();
  try {
    const { status, body: answer } = await state.api.sell(body);
    if (status === 401 && (await onUnauthorized(answer))) return;
    if (status !== 201) {
      error.textContent = answer?.message ?? `The sale failed (${status})`;
      error.hidden = false;
      if (!isUnavailable(status)) sale.nonce = null;
      feedback.give('reject');
      return;
    }
    setOnline(true);
    sale.nonce = null;
    $('sell-name').value = '';
    renderSold(answer);
    const admitted = (answer.attendees ?? []).filter((attendee) => attendee.checked_in).length;
    state.counts.admitted += admitted;
    showAnswer({
      ok: true,
      outcome: 'sold',
      attendee: { name: answer.attendees?.[0]?.name ?? '', ticket_title: `${answer.attendees?.length ?? 0} × ${ticket.title}` },
      detail: `${answer.order.total} ${answer.order.currency} · ${paymentWords(answer.order.payment_method)}${admitted ? ` · ${admitted} admitted` : ''}`,
    });
    void loadSaleTickets().then(() => renderSold(answer));
  } catch (failure) {
    if (!(failure instanceof NetworkError)) throw failure;
    setOnline(false);
    error.textContent = 'No connection: nothing was sold, or the answer was lost. Try again: the same sale is not made twice.';
    error.hidden = false;
  } finally {
    sale.busy = false;
    renderSale();
  }
}

function paymentWords(method) {
  return { cash: 'cash', card_terminal: 'card terminal', free: 'free', online: 'online' }[method] ?? method;
}

function renderSold(answer) {
  const result = $('sell-result');
  const title = document.createElement('p');
  title.className = 'sold-title';
  title.textContent = `Sold: order ${answer.order.id}, ${answer.order.total} ${answer.order.currency} (${paymentWords(answer.order.payment_method)})`;
  const list = document.createElement('ul');
  for (const attendee of answer.attendees ?? []) {
    const item = document.createElement('li');
    item.textContent = `${attendee.name || 'Attendee'} · ${attendee.ticket_title} · ${attendee.checked_in ? 'admitted' : 'not admitted'}`;
    list.append(item);
  }
  result.replaceChildren(title, list);
  result.hidden = false;
}

// ---------- start ----------

async function loadConfig() {
  try {
    const response = await fetch('config.json');
    if (response.ok) state.apiBase = (await response.json()).api ?? state.apiBase;
  } catch {
    // Offline with no cached copy: the default base.
  }
}

function wire() {
  $('pair-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = tokenFrom($('pair-token').value);
    if (token) void pair(token);
  });
  $('pair-scan').addEventListener('click', () => void show('pair-scan'));
  $('camera-cancel').addEventListener('click', () => void show('pair'));
  $('lists-retry').addEventListener('click', () => void chooseList());
  // A tap on the banner closes it (the ticket still in front of the camera is not read again).
  $('answer').addEventListener('click', hideAnswer);
  $('answer-undo').addEventListener('click', (event) => {
    event.stopPropagation();
    void undoLast();
  });
  $('mute-toggle').addEventListener('click', () => {
    feedback.muted = !feedback.muted;
    void db.setSetting('muted', feedback.muted);
    renderHeader();
  });
  $('torch-toggle').addEventListener('click', async () => {
    await scanner.setTorch(!scanner.torch);
    renderTorch();
  });
  $('input-toggle').addEventListener('click', () => {
    state.input = state.input === 'camera' ? 'keyboard' : 'camera';
    void db.setSetting('input', state.input);
    renderHeader();
  });
  $('tool-sell').addEventListener('click', () => void show('sell'));
  $('sell-less').addEventListener('click', () => {
    state.sale.quantity -= 1;
    state.sale.nonce = null;
    renderSale();
  });
  $('sell-more').addEventListener('click', () => {
    state.sale.quantity += 1;
    state.sale.nonce = null;
    renderSale();
  });
  $('sell-form').addEventListener('change', () => {
    state.sale.nonce = null;
  });
  $('sell-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void sell();
  });
  // The first tap or key of the session lets the page make sounds (browsers' autoplay rule).
  addEventListener('pointerdown', () => feedback.unlock(), { capture: true });
  addEventListener('keydown', () => feedback.unlock(), { capture: true });
  addEventListener('keydown', onKey);
  $('mode-toggle').addEventListener('click', () => {
    state.mode = state.mode === 'entry' ? 'exit' : 'entry';
    state.recent.clear();
    void db.setSetting('mode', state.mode);
    renderHeader();
  });
  $('tool-scan').addEventListener('click', () => {
    // "Scan" again: the ticket in front of the camera is read again at once.
    state.recent.clear();
    void show('scan');
  });
  $('tool-search').addEventListener('click', () => void show('search'));
  $('tool-code').addEventListener('click', () => void show('code'));
  $('tool-menu').addEventListener('click', () => void show('menu'));
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void runSearch($('search-input').value.trim());
  });
  $('search-input').addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => void runSearch($('search-input').value.trim()), 300);
  });
  $('code-form').addEventListener('submit', (event) => {
    event.preventDefault();
    // Codes are upper-case letters and digits: typed in lower case, they are meant the same.
    const code = normalizeCode($('code-input').value);
    if (!code) return;
    $('code-input').value = '';
    void enqueueCheck(code);
  });
  $('menu-sync').addEventListener('click', () => void backgroundWork());
  $('menu-lists').addEventListener('click', () => void chooseList());
  $('menu-unpair').addEventListener('click', () => {
    if (confirm('Unpair this device? Scans not uploaded yet are lost.')) void unpair();
  });
  addEventListener('online', () => setOnline(true));
  addEventListener('offline', () => {
    state.api?.abortAll();
    setOnline(false);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) scanner.close();
    else if (state.view === 'scan') void startCamera();
  });
  setInterval(async () => {
    if (!state.list || navigator.onLine === false) return;
    if (!state.online || Date.now() - state.lastSync > SYNC_EVERY_MS || (await db.count('queue')) > 0) void backgroundWork();
  }, TICK_MS);
}

async function start() {
  wire();
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => undefined);
  await loadConfig();
  state.device = (await db.getSetting('device')) ?? null;
  state.mode = (await db.getSetting('mode')) ?? 'entry';
  state.input = (await db.getSetting('input')) === 'keyboard' ? 'keyboard' : 'camera';
  feedback.muted = (await db.getSetting('muted')) === true;
  const hashToken = new URLSearchParams(location.hash.slice(1)).get('token');
  renderHeader();
  await renderQueue();
  if (!state.device) {
    await show('pair');
    if (hashToken) {
      $('pair-token').value = hashToken;
      await pair(hashToken);
    }
    return;
  }
  state.api = new ApiClient(state.apiBase, state.device.api_token);
  const list = await db.getSetting('list');
  if (list) await selectList((await db.getSetting(`sync:${list.id}`))?.list ?? list);
  else await chooseList();
}

void start().then(() => document.documentElement.setAttribute('data-ready', 'true'));
