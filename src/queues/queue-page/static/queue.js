// The waiting room's page (/queue/{id}/): joins with a request id and the SHA-256 of a secret kept
// in this browser, shows the place and the ETA, asks again when the service says, and once admitted
// claims the token, keeps it in the cal_queue cookie and sends the buyer on to the event.
'use strict';

(function () {
  const api = document.body.dataset.api;
  const eventsApi = document.body.dataset.eventsApi;
  const queueId = Number(location.pathname.split('/')[2]);
  const storageKey = `cal-queue-${queueId}`;
  const $ = (id) => document.getElementById(id);

  const STATE_TEXT = {
    prequeue: 'You are in the pre-queue: places are drawn when the sale opens.',
    waiting: 'You are in the queue.',
    admitted: 'It is your turn!',
    completed: 'Your turn is over: your tickets are ordered.',
    expired: 'Your turn has passed.',
    revoked: 'Your place was withdrawn.',
    closed: 'The queue is closed.',
    sold_out: 'Sold out.',
  };

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
  }

  function randomHex(length) {
    return hex(crypto.getRandomValues(new Uint8Array(length)));
  }

  async function identity() {
    const kept = localStorage.getItem(storageKey);
    if (kept) return JSON.parse(kept);
    const made = { requestId: randomHex(16), secret: randomHex(32) };
    localStorage.setItem(storageKey, JSON.stringify(made));
    return made;
  }

  function leadingZeroBits(bytes) {
    let bits = 0;
    for (const byte of new Uint8Array(bytes)) {
      if (byte !== 0) return bits + Math.clz32(byte) - 24;
      bits += 8;
    }
    return bits;
  }

  // The queue's proof-of-work: a nonce such that SHA-256("{queue}:{request id}:{nonce}") starts with `bits` zero bits.
  async function solveChallenge(requestId, bits) {
    const encoder = new TextEncoder();
    for (let counter = 0; ; counter += 1) {
      const nonce = counter.toString(36);
      const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${queueId}:${requestId}:${nonce}`));
      if (leadingZeroBits(digest) >= bits) return nonce;
    }
  }

  async function call(method, path, body) {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }

  function formatWait(seconds) {
    if (seconds < 60) return `${seconds} s`;
    const minutes = Math.round(seconds / 60);
    return minutes < 60 ? `about ${minutes} min` : `about ${Math.round(minutes / 60)} h`;
  }

  function show(entry) {
    const state = $('state');
    state.dataset.status = entry.status;
    state.textContent = STATE_TEXT[entry.status] || entry.status;
    $('position').textContent = entry.position ?? '–';
    $('ahead').textContent = entry.ahead ?? '–';
    $('eta').textContent = entry.eta_seconds ? `${formatWait(entry.eta_seconds.p50)} (at most ${formatWait(entry.eta_seconds.p90)})` : '–';
  }

  async function admit(me) {
    const claimed = await call('POST', `/queues/${queueId}/entries/${me.requestId}/admission`, { secret: me.secret });
    if (claimed.status !== 200) return false;
    const maxAge = Math.max(0, Math.floor((Date.parse(claimed.body.expires_at) - Date.now()) / 1000));
    document.cookie = `cal_queue=${claimed.body.token}; path=/; max-age=${maxAge}; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
    const queue = await call('GET', `/queues/${queueId}`);
    const link = $('continue');
    link.href = `${eventsApi}/events/${queue.body.post_id}`;
    try {
      const event = await fetch(link.href).then((response) => response.json());
      if (event && event.url) link.href = event.url;
    } catch {
      // The API's address is good enough.
    }
    $('next').hidden = false;
    return true;
  }

  async function run() {
    const me = await identity();
    const secretHash = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(me.secret)));
    const join = { request_id: me.requestId, secret_hash: secretHash };
    let entry = await call('POST', `/queues/${queueId}/entries`, join);
    if (entry.status === 403 && entry.body && entry.body.code === 'queue-challenge-failed') {
      $('state').textContent = 'Getting you a place…';
      join.challenge_nonce = await solveChallenge(me.requestId, entry.body.data.challenge_bits);
      entry = await call('POST', `/queues/${queueId}/entries`, join);
    }
    for (;;) {
      if (entry.status >= 400) {
        $('state').dataset.status = 'error';
        $('state').textContent = (entry.body && entry.body.message) || 'The queue cannot be joined now.';
        setTimeout(run, 10_000);
        return;
      }
      show(entry.body);
      if (entry.body.status === 'admitted' && (await admit(me))) return;
      if (!['prequeue', 'waiting', 'admitted'].includes(entry.body.status)) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, entry.body.refresh_after_seconds) * 1000));
      entry = await call('GET', `/queues/${queueId}/entries/${me.requestId}`);
    }
  }

  run();
})();
