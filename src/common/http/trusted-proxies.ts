/** Express's compiled "trust proxy" test: is the address at this hop (0: the socket's peer) a trusted proxy? */
export type TrustTest = (address: string, hop: number) => boolean;

/** Answers kept before the memory starts again: addresses in X-Forwarded-For are the clients' to choose. */
const MAX_KEPT_ANSWERS = 4096;

/**
 * Express's trust test with its answers kept per address and hop. Express parses the address anew
 * on every call, and a request calls it several times (`request.protocol` for the origin of every
 * URL an answer shows, `request.ip` for the request limit and the log); a CPU profile of the
 * anonymous single-event GET put about 2 % of it there. The answer depends on nothing else.
 */
export function rememberTrust(trust: TrustTest, maxKept = MAX_KEPT_ANSWERS): TrustTest {
  const answers = new Map<string, boolean>();
  return (address, hop) => {
    const key = `${hop} ${address}`;
    let trusted = answers.get(key);
    if (trusted === undefined) {
      trusted = trust(address, hop);
      if (answers.size >= maxKept) answers.clear();
      answers.set(key, trusted);
    }
    return trusted;
  };
}
