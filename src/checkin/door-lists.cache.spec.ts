import type { CheckinList } from './checkin-list.entity';
import type { CheckinRepository, DoorEvent } from './checkin.repository';
import { DOOR_LIST_TTL_MS, DoorListCache } from './door-lists.cache';

describe('DoorListCache', () => {
  let stored: Map<number, CheckinList>;
  let reads: number[][];
  let cache: DoorListCache;
  let now: number;

  beforeEach(() => {
    now = 1000;
    jest.spyOn(performance, 'now').mockImplementation(() => now);
    stored = new Map([
      [1, { id: 1, eventId: 10, name: 'North' } as CheckinList],
      [2, { id: 2, eventId: 10, name: 'South' } as CheckinList],
    ]);
    reads = [];
    const repository = {
      findLists: (ids: number[]) => {
        reads.push(ids);
        return Promise.resolve(ids.map((id) => stored.get(id)).filter((list): list is CheckinList => list !== undefined));
      },
      events: (ids: number[]) => Promise.resolve(ids.map((id) => ({ id, authorId: 1 }) as DoorEvent)),
    } as unknown as CheckinRepository;
    cache = new DoorListCache(repository);
  });

  afterEach(() => jest.restoreAllMocks());

  it('reads a list once per TTL, and only the lists it does not hold', async () => {
    expect((await cache.get([1])).map((entry) => entry.list.name)).toEqual(['North']);
    expect((await cache.get([2, 1])).map((entry) => entry.list.name)).toEqual(['South', 'North']);
    expect(reads).toEqual([[1], [2]]);
    now += DOOR_LIST_TTL_MS + 1;
    await cache.get([1]);
    expect(reads).toEqual([[1], [2], [1]]);
  });

  it('reads a forgotten list again, and drops a deleted one', async () => {
    await cache.get([1, 2]);
    stored.set(1, { id: 1, eventId: 10, name: 'Renamed' } as CheckinList);
    cache.forget(1);
    expect((await cache.get([1, 2])).map((entry) => entry.list.name)).toEqual(['Renamed', 'South']);
    stored.delete(2);
    now += DOOR_LIST_TTL_MS + 1;
    expect((await cache.get([1, 2])).map((entry) => entry.list.id)).toEqual([1]);
  });

  it('answers nothing for a list that does not exist', async () => {
    expect(await cache.get([3])).toEqual([]);
  });
});
