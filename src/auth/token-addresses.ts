import { BlockList, isIP } from 'node:net';

/**
 * An API token's IP allow-list: addresses (`203.0.113.7`, `2001:db8::1`) and CIDR ranges
 * (`203.0.113.0/24`), stored comma-separated.
 */

/** Why an allow-list entry is not valid, or null when it is. */
export function addressEntryProblem(entry: string): string | null {
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || extra !== undefined) return `${entry} is not an IP address or CIDR range`;
  if (bits === undefined) return null;
  const prefix = Number(bits);
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && prefix <= max ? null : `${entry} has a prefix length outside 0-${max}`;
}

const lists = new Map<string, BlockList>();

function blockListOf(allowed: string): BlockList {
  let list = lists.get(allowed);
  if (!list) {
    list = new BlockList();
    for (const entry of allowed.split(',').filter(Boolean)) {
      const [address, bits] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(bits), type);
    }
    // Bounded: lists are few (one per token with an allow-list); a parsed list holds no secret.
    if (lists.size >= 1000) lists.clear();
    lists.set(allowed, list);
  }
  return list;
}

/** Whether `clientAddress` (as Express resolves it behind TRUST_PROXY) is in the allow-list. */
export function addressAllowed(allowed: string, clientAddress: string | undefined): boolean {
  if (!clientAddress) return false;
  const address = clientAddress.startsWith('::ffff:') && isIP(clientAddress.slice(7)) === 4 ? clientAddress.slice(7) : clientAddress;
  const family = isIP(address);
  if (!family) return false;
  return blockListOf(allowed).check(address, family === 6 ? 'ipv6' : 'ipv4');
}
