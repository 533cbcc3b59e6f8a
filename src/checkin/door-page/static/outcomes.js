// The one table of what the door page says for each answer, online and offline alike: the words,
// the icon (colour is never the only signal), the tone of the banner and the sound. A refusal reads
// the same whether the service or this device decided it.

/** 24×24 icon paths (stroked, round caps), drawn as inline SVG. */
const ICONS = {
  check: 'M4 12.5l5 5L20 6.5',
  exit: 'M14 5h5v14h-5M4 12h11M11 8l4 4-4 4',
  cross: 'M6 6l12 12M18 6L6 18',
  repeat: 'M4 12a8 8 0 0 1 14-5.3M20 4v4h-4M20 12a8 8 0 0 1-14 5.3M4 20v-4h4',
  question: 'M9 9a3 3 0 1 1 4 2.8c-.7.3-1 .9-1 1.7V15M12 18.5v.5',
  ban: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8',
  coin: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM15 8.5c-.6-.9-1.7-1.5-3-1.5-1.7 0-3 1-3 2.3 0 3 6 1.7 6 4.7 0 1.3-1.3 2.5-3 2.5-1.3 0-2.5-.6-3-1.5M12 5v2M12 17v2',
  lock: 'M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3',
  door: 'M5 21V4h10v17M15 7l4-1v15M3 21h18M12 12v1',
  clock: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 7v5l3 2',
  split: 'M6 4v5a6 6 0 0 0 6 6 6 6 0 0 0 6-6V4M12 15v5',
  alert: 'M12 3l10 18H2zM12 10v4M12 17.5v.5',
  swap: 'M4 8h14l-3.5-3.5M20 16H6l3.5 3.5',
  undo: 'M9 14L4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  ticket: 'M3 8a2 2 0 0 0 0 4v4h18v-4a2 2 0 0 1 0-4V4H3zM9 4v12',
};

/**
 * Every answer the door can give. `tone`: ok (green), error (red), neutral (grey).
 * `sound`: accept, reject or none. The reasons are the service's (docs/checkin.md, "Refusals").
 */
export const OUTCOMES = {
  entry: { words: 'Welcome', icon: 'check', tone: 'ok', sound: 'accept' },
  exit: { words: 'Goodbye', icon: 'exit', tone: 'ok', sound: 'accept' },
  already_redeemed: { words: 'Already checked in', icon: 'repeat', tone: 'error', sound: 'reject' },
  invalid: { words: 'Unknown ticket', icon: 'question', tone: 'error', sound: 'reject' },
  canceled: { words: 'Ticket canceled', icon: 'cross', tone: 'error', sound: 'reject' },
  revoked: { words: 'Old code: ticket replaced', icon: 'swap', tone: 'error', sound: 'reject' },
  unpaid: { words: 'Not paid', icon: 'coin', tone: 'error', sound: 'reject' },
  blocked: { words: 'Blocked', icon: 'lock', tone: 'error', sound: 'reject' },
  product: { words: 'Not valid at this entrance', icon: 'door', tone: 'error', sound: 'reject' },
  invalid_time: { words: 'Not valid at this time', icon: 'clock', tone: 'error', sound: 'reject' },
  ambiguous: { words: 'Ambiguous ticket', icon: 'split', tone: 'error', sound: 'reject' },
  error: { words: 'Not checked', icon: 'alert', tone: 'error', sound: 'reject' },
  sold: { words: 'Sold', icon: 'ticket', tone: 'ok', sound: 'accept' },
  undone: { words: 'Scan undone', icon: 'undo', tone: 'neutral', sound: null },
};

/** The outcome of a successful scan of `type`, or of a refusal's `reason` (unknown reasons read as errors, with their code). */
export function outcomeOf(ok, type, reason) {
  if (ok) return { key: type === 'exit' ? 'exit' : 'entry', ...OUTCOMES[type === 'exit' ? 'exit' : 'entry'] };
  const known = OUTCOMES[reason];
  return known
    ? { key: reason, ...known }
    : { key: reason ?? 'error', ...OUTCOMES.error, words: reason ? `Refused: ${reason}` : OUTCOMES.error.words };
}

const SVG = 'http://www.w3.org/2000/svg';

/** An `<svg>` of the named icon (decorative: the words say the same). */
export function iconElement(name) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2.4');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[name] ?? ICONS.alert);
  svg.append(path);
  return svg;
}
