import fc from 'fast-check';
import { bodyHash, canonicalJson, isValidSignature, signPayload } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'a-webhook-secret-of-some-length';

  it('writes canonical JSON with sorted keys and no blanks', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it('reads back what JSON.parse reads, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('accepts the right signature, with or without the sha256= prefix, and nothing else', () => {
    const payload = canonicalJson({ order_id: 5 });
    const signature = signPayload(secret, payload);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(isValidSignature(secret, payload, signature)).toBe(true);
    expect(isValidSignature(secret, payload, `sha256=${signature.toUpperCase()}`)).toBe(true);
    expect(isValidSignature(secret, canonicalJson({ order_id: 6 }), signature)).toBe(false);
    expect(isValidSignature('another-secret-of-some-length', payload, signature)).toBe(false);
    expect(isValidSignature(secret, payload, 'not-hex')).toBe(false);
    expect(isValidSignature(secret, payload, '')).toBe(false);
  });

  it('hashes bodies so that key order does not matter and content does', () => {
    expect(bodyHash({ a: 1, b: 2 })).toBe(bodyHash({ b: 2, a: 1 }));
    expect(bodyHash({ a: 1 })).not.toBe(bodyHash({ a: 2 }));
    expect(bodyHash(undefined)).toBe(bodyHash({}));
  });
});
