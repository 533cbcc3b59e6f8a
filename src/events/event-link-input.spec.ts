import { ApiError } from '../common/errors/api-error';
import { readLinkedPosts, readTermValues } from './event-link-input';

describe('readLinkedPosts', () => {
  it('is undefined when the field is not sent', () => {
    expect(readLinkedPosts(undefined, 'venue')).toBeUndefined();
  });

  it('reads ids, {id}, objects of fields and lists of them', () => {
    expect(readLinkedPosts(4, 'venue')).toEqual([{ id: 4 }]);
    expect(readLinkedPosts('4', 'venue')).toEqual([{ id: 4 }]);
    expect(readLinkedPosts({ id: 4 }, 'venue')).toEqual([{ id: 4 }]);
    expect(readLinkedPosts({ venue: 'Hall' }, 'venue')).toEqual([{ fields: { venue: 'Hall' } }]);
    expect(readLinkedPosts([5, { id: 6 }, { organizer: 'Ann' }], 'organizer')).toEqual([
      { id: 5 },
      { id: 6 },
      { fields: { organizer: 'Ann' } },
    ]);
    expect(readLinkedPosts('5,6', 'organizer')).toEqual([{ id: 5 }, { id: 6 }]);
  });

  it('reads "", 0, null and [] as none, and drops repeated ids', () => {
    for (const none of ['', 0, '0', null, []]) expect(readLinkedPosts(none, 'venue')).toEqual([]);
    expect(readLinkedPosts([3, 3], 'venue')).toEqual([{ id: 3 }]);
  });

  it('refuses other values, naming the field', () => {
    expect(() => readLinkedPosts(true, 'venue')).toThrow(ApiError);
    expect(() => readLinkedPosts({ id: 'x' }, 'organizer')).toThrow(/organizer/);
    expect(() => readLinkedPosts(-2, 'venue')).toThrow(ApiError);
  });
});

describe('readTermValues', () => {
  it('reads ids and names in any list form', () => {
    expect(readTermValues([2, 'Music'], 'categories')).toEqual([2, 'Music']);
    expect(readTermValues('2, Music', 'tags')).toEqual([2, 'Music']);
    expect(readTermValues(['3', '3'], 'tags')).toEqual([3]);
  });

  it('clears with "" and [], and is undefined when absent', () => {
    expect(readTermValues('', 'tags')).toEqual([]);
    expect(readTermValues([], 'tags')).toEqual([]);
    expect(readTermValues(undefined, 'tags')).toBeUndefined();
  });

  it('refuses objects, naming the field', () => {
    expect(() => readTermValues([{ a: 1 }], 'categories')).toThrow(/categories/);
    expect(() => readTermValues({ a: 1 }, 'tags')).toThrow(ApiError);
  });
});
