/**
 * The MCP transport's security rules for a Streamable HTTP endpoint (2025-11-25, "Security
 * Warning"): the `Origin` of a browser's request must be one we serve (else 403), and the `Host`
 * must be one of ours, so that a page whose name was made to resolve to this server (DNS
 * rebinding) cannot reach it. Pure, for the controller and its unit test.
 */
export interface McpOriginRules {
  /** PUBLIC_URL, when set: its origin and host are ours. */
  publicUrl: string | null;
  /** MCP_ALLOWED_ORIGINS. */
  allowedOrigins: readonly string[];
  /** MCP_ALLOWED_HOSTS. */
  allowedHosts: readonly string[];
}

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

/**
 * Whether `host` (the Host header) names this server: PUBLIC_URL's host, or without PUBLIC_URL a
 * loopback name (any port), or one of MCP_ALLOWED_HOSTS (exactly, or by name when listed without a port).
 */
export function hostAllowed(host: string | undefined, rules: McpOriginRules): boolean {
  if (!host) return false;
  const value = host.trim().toLowerCase();
  if (rules.publicUrl) {
    if (new URL(rules.publicUrl).host === value) return true;
  } else if (LOCAL_HOSTNAMES.has(hostnameOf(value))) return true;
  return rules.allowedHosts.some((allowed) => allowed === value || (!/:\d+$/.test(allowed) && allowed === hostnameOf(value)));
}

/**
 * Whether a request with this `Origin` may go on: none (not a browser), PUBLIC_URL's origin, one of
 * MCP_ALLOWED_ORIGINS, or without PUBLIC_URL the request's own origin (the page was served by us).
 */
export function originAllowed(origin: string | undefined, requestOrigin: string, rules: McpOriginRules): boolean {
  if (origin === undefined) return true;
  let normalised: string;
  try {
    normalised = new URL(origin).origin;
  } catch {
    return false;
  }
  if (normalised === 'null') return false;
  if (rules.allowedOrigins.includes(normalised)) return true;
  if (rules.publicUrl) return new URL(rules.publicUrl).origin === normalised;
  return normalised === requestOrigin.toLowerCase();
}
