// The door page: pair the device, choose the list, scan, answer green or red, search, exits,
// and work on without a connection (docs/door-page.md).

import { ApiClient, NetworkError, isUnavailable } from './api.js';
import * as db from './db.js';
import { afterScan, decide, decryptRecord, indexOf } from './offline.js';
import { Scanner } from './scanner.js';

const SOFTWARE = 'cal door page 1';
const SYNC_EVERY_MS = 60_000;
/** How often the page looks whether to upload, sync or try the service again. */
const TICK_MS = 15_000;
const ANSWER_MS = { ok: 3000, error: 5000 };
/** The code just answered is not taken again for this long after the answer goes. */
const SAME_CODE_PAUSE_MS = 2500;

const REASONS = {
  invalid: 'Unknown ticket',
  revoked: 'Ticket revoked',
  canceled: 'Order canceled',
  unpaid: 'Not paid',
  blocked: 'Blocked',
  product: 'Not valid at this entrance',
  invalid_time: 'Not valid at this time',
  already_redeemed: 'Already checked in',
  ambiguous: 'Ambiguous ticket',
};

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
  busy: false,
  answering: false,
  lastCode: null,
  lastCodeUntil: 0,
  lastSync: 0,
  syncing: null,
  uploading: null,
  wakeLock: null,
  answerTimer: null,
};

const scanner = new Scanner($('video'), (text) => onCodeRead(text));

// ---------- views ----------

const VIEWS = ['pair', 'lists', 'scan', 'search', 'code', 'menu'];
/** `pair-scan`: the camera reads a device's initialization token instead of tickets. */
const TOOL_OF_VIEW = { scan: 'tool-scan', search: 'tool-search', code: 'tool-code', menu: 'tool-menu' };

async function show(view) {
  if (state.answering) hideAnswer();
  state.view = view;
  const section = view === 'pair-scan' ? 'scan' : view;
  for (const name of VIEWS) $(`${name}-view`).hidden = name !== section;
  $('camera-cancel').hidden = view !== 'pair-scan';
  $('toolbar').hidden = !state.device || !state.list || view === 'pair' || view === 'pair-scan' || view === 'lists';
  for (const [name, tool] of Object.entries(TOOL_OF_VIEW)) $(tool).setAttribute('aria-current', String(name === view));
  if (section === 'scan') await startCamera();
  else scanner.stop();
  if (view === 'search') $('search-input').focus();
  if (view === 'code') $('code-input').focus();
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
    void keepScreenOn();
  } catch (error) {
    message.textContent = `No camera: ${error?.message ?? error}. Use Search or Code.`;
    message.hidden = false;
  }
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
  $('sync-status').textContent = `Offline data: ${records} tickets, synced ${when}`;
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

function showAnswer({ ok, type, attendee, reason, last, offline, detail }) {
  const answer = $('answer');
  answer.dataset.state = ok ? 'ok' : 'error';
  answer.dataset.reason = ok ? 'ok' : reason;
  $('answer-title').textContent = ok ? (type === 'exit' ? 'Goodbye' : 'Welcome') : (REASONS[reason] ?? reason);
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
  answer.hidden = false;
  state.answering = true;
  clearTimeout(state.answerTimer);
  state.answerTimer = setTimeout(hideAnswer, ok ? ANSWER_MS.ok : ANSWER_MS.error);
  if (navigator.vibrate) navigator.vibrate(ok ? 80 : [120, 80, 120]);
}

function hideAnswer() {
  clearTimeout(state.answerTimer);
  $('answer').hidden = true;
  state.answering = false;
  state.lastCodeUntil = Date.now() + SAME_CODE_PAUSE_MS;
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
    return;
  }
  if (lists.length === 1) return selectList(lists[0]);
  for (const list of lists) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.listId = String(list.id);
    button.append(list.name);
    const small = document.createElement('small');
    small.textContent = `Event ${list.post_id} · ${list.checkin_count}/${list.position_count} checked in`;
    button.append(small);
    button.addEventListener('click', () => void selectList(list));
    item.append(button);
    items.append(item);
  }
}

async function selectList(list) {
  state.list = list;
  state.sync = (await db.getSetting(`sync:${list.id}`)) ?? null;
  await db.setSetting('list', list);
  renderHeader();
  await show('scan');
  await renderSyncStatus();
  void backgroundWork();
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
  const secret = text.trim();
  if (state.answering || state.busy) return;
  if (secret === state.lastCode && Date.now() < state.lastCodeUntil) return;
  await check(secret);
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
  state.busy = true;
  state.lastCode = secret;
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
    state.busy = false;
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
    showAnswer({ ok: true, type: scan.type, attendee: body.attendee });
    return;
  }
  const reason = body?.reason ?? body?.data?.reason;
  if (!reason) {
    // Not a refusal of the ticket (a code too long to be one, a list this device lost): say what the service said.
    showAnswer({ ok: false, type: scan.type, reason: 'invalid', detail: body?.message ?? `HTTP ${status}` });
    return;
  }
  // A refusal names no attendee: the offline record, when this device holds it, does.
  const local = reason === 'invalid' ? null : await localKnowledge(secret).catch(() => null);
  showAnswer({ ok: false, type: scan.type, reason, last: body?.data?.last, attendee: body?.attendee ?? local?.attendee });
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
  if (decision.ok) {
    await db.put('queue', scan);
    await remember(local.index, afterScan(local.state, scan.type, new Date(scan.datetime)));
    await renderQueue();
  }
  showAnswer({ ok: decision.ok, type: scan.type, reason: decision.reason, last: decision.last, attendee: local.attendee, offline: true });
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
  if (!attendee.checkin_secret || state.busy) return;
  await check(attendee.checkin_secret);
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
  $('answer').addEventListener('click', hideAnswer);
  $('mode-toggle').addEventListener('click', () => {
    state.mode = state.mode === 'entry' ? 'exit' : 'entry';
    void db.setSetting('mode', state.mode);
    renderHeader();
  });
  $('tool-scan').addEventListener('click', () => void show('scan'));
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
    let code = $('code-input').value.trim();
    // Codes are upper-case letters and digits: typed in lower case, they are meant the same.
    if (/^[0-9a-z]{16,64}$/i.test(code)) code = code.toUpperCase();
    if (!code || state.busy) return;
    $('code-input').value = '';
    void check(code);
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
