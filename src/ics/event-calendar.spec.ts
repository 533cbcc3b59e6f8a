import { foldLine } from './event-calendar';

const octets = (line: string) => Buffer.byteLength(line);
const unfold = (folded: string) => folded.replace(/\r\n /g, '');

describe('foldLine', () => {
  it('leaves lines of up to 75 octets alone', () => {
    const line = `SUMMARY:${'x'.repeat(67)}`;
    expect(foldLine(line)).toBe(line);
  });

  it('folds longer lines into lines of at most 75 octets, the leading space included', () => {
    const line = `DESCRIPTION:${'a'.repeat(300)}`;
    const folded = foldLine(line);
    expect(folded.split('\r\n').map(octets)).toEqual([75, 75, 75, 75, 16]);
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((part) => part.startsWith(' ')),
    ).toBe(true);
    expect(unfold(folded)).toBe(line);
  });

  it('never cuts a character in two, however many octets it takes', () => {
    const line = `LOCATION:${'é'.repeat(50)}${'漢'.repeat(30)}${'🎷'.repeat(20)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      expect(part).not.toMatch(/[\ud800-\udbff]$/);
    }
    expect(unfold(folded)).toBe(line);
  });
});
