import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why a webhook URL is refused, worded for the `url` field of a 400 or a delivery's last error. */
export class WebhookTargetError extends Error {}

export interface WebhookTarget {
  url: URL;
  /** The address the request connects to: the one checked, so that a second DNS answer cannot differ. */
  address: string;
  family: 4 | 6;
}

/** Only ordinary public addresses: not loopback, private, link-local, carrier-grade NAT, multicast, reserved... */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

/** http(s) URLs only, without credentials; the shape alone, before any DNS lookup. */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('url must be an http or https URL');
  if (url.username || url.password) throw new WebhookTargetError('url must not carry credentials');
  return url;
}

/**
 * Resolves the URL's host and checks every address it resolves to (not the host string: a public
 * name may point at 127.0.0.1). Unless private addresses are allowed, any non-public one refuses
 * the whole URL.
 */
export async function resolveWebhookTarget(raw: string, allowPrivate: boolean): Promise<WebhookTarget> {
  const url = parseWebhookUrl(raw);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookTargetError(`url host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new WebhookTargetError(`url host ${host} does not resolve`);
  if (!allowPrivate) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused)
      throw new WebhookTargetError(`url resolves to ${refused.address}, a private or loopback address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
