// The check-in API as the door page uses it: `Authorization: Device <api_token>`, JSON both ways,
// a timeout (a door with bad reception should not wait long before deciding offline).

export class NetworkError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NetworkError';
  }
}

export class ApiClient {
  /** `base`: the tickets namespace, such as `/cal/tickets/v1`. */
  constructor(base, token = null) {
    this.base = base.replace(/\/+$/, '');
    this.token = token;
    this.inFlight = new Set();
  }

  /** Gives up every request under way (the browser says the network is gone). */
  abortAll() {
    for (const controller of this.inFlight) controller.abort();
  }

  /**
   * `{status, body}` for any HTTP answer; throws NetworkError when nothing answered in time
   * (offline, timeout, the connection dropped).
   */
  async request(method, path, { body, query, timeoutMs = 8000 } = {}) {
    const url = new URL(`${this.base}/${path}`, location.origin);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
    }
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.token) headers.Authorization = `Device ${this.token}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    this.inFlight.add(controller);
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (error) {
      throw new NetworkError(error?.name === 'AbortError' ? 'timed out' : String(error?.message ?? error));
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    let parsed = null;
    try {
      parsed = await response.json();
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  }

  initialize(token, hardware, software) {
    return this.request('POST', 'devices/initialize', { body: { token, hardware, software } });
  }

  list(id) {
    return this.request('GET', `checkin-lists/${encodeURIComponent(id)}`);
  }

  redeem(scan, { force = false, timeoutMs } = {}) {
    const body = { secret: scan.secret, list_ids: [scan.list_id], type: scan.type, datetime: scan.datetime, nonce: scan.nonce };
    if (force) body.force = true;
    return this.request('POST', 'checkin/redeem', { body, timeoutMs });
  }

  search(listId, text) {
    return this.request('GET', 'checkin/search', { query: { list: listId, search: text } });
  }

  /** Annuls this device's scan made with `nonce` (docs/checkin.md, "Annul"). */
  annul(nonce) {
    return this.request('POST', 'checkin/annul', { body: { nonce } });
  }

  saleTickets(listId) {
    return this.request('GET', `checkin-lists/${encodeURIComponent(listId)}/sale-tickets`);
  }

  /** A walk-in sale: `{list_id, ticket_id, quantity, payment_method, admit, nonce, purchaser?}`. */
  sell(body) {
    return this.request('POST', 'checkin/sell', { body, timeoutMs: 15000 });
  }

  sync(listId, cursor, limit = 1000) {
    return this.request('GET', `checkin-lists/${encodeURIComponent(listId)}/sync`, { query: { cursor, limit }, timeoutMs: 30000 });
  }
}

/**
 * The answer of a route this service does not have (an older version): 404 with the router's own
 * code, not a domain code such as `checkin-not-found`.
 */
export function isMissingRoute(status, body) {
  return status === 404 && (!body?.code || body.code === 'rest_no_route');
}

/** A server-side failure worth retrying later (the scan is then decided offline). */
export function isUnavailable(status) {
  return status === 408 || status === 429 || status >= 500;
}
