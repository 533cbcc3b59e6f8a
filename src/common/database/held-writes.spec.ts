import type { EntityManager, QueryRunner } from 'typeorm';
import { HeldWrites } from './held-writes';

/** A MySQL-typed transaction whose statements are recorded; `answers` gives each statement's raw result. */
function transaction(answers: (sql: string) => unknown = () => ({ affectedRows: 1 })) {
  const sent: Array<{ sql: string; parameters: unknown[] | undefined }> = [];
  const runner = {
    isTransactionActive: true,
    query: (sql: string, parameters?: unknown[]) => {
      sent.push({ sql, parameters });
      return Promise.resolve(answers(sql));
    },
  } as unknown as QueryRunner;
  const manager = { connection: { options: { type: 'mysql' } }, queryRunner: runner } as unknown as EntityManager;
  (runner as { manager?: EntityManager }).manager = manager;
  return { runner, manager, sent };
}

describe('HeldWrites', () => {
  it('holds nothing on SQLite', () => {
    const { manager } = transaction();
    (manager as unknown as { connection: object }).connection = { options: { type: 'better-sqlite3' } };
    expect(HeldWrites.hold(manager)).toBeNull();
  });

  it('writes stand-in ids as the variables that LAST_INSERT_ID() sets, in parameters and anywhere in JSON texts', () => {
    const { manager } = transaction();
    const held = HeldWrites.hold(manager)!;
    const order = held.add('INSERT INTO orders(name) VALUES (?)', ['Ada'], { capturesId: true }).insertId!;
    held.add('INSERT INTO order_items(order_id, quantity) VALUES (?, ?)', [order, 2]);
    const payload = JSON.stringify({ order_id: order, note: `not ${order}`, list: [order] });
    held.add('INSERT INTO outbox(payload) VALUES (?)', [payload], { json: [payload] });
    held.add('DELETE FROM lines WHERE cart = ?', [7], { guard: { rows: 2, fails: () => new Error('gone') } });
    const part = held.compoundPart();
    expect(part.declarations).toBe('DECLARE held_0 BIGINT DEFAULT NULL;');
    expect(part.statements).toEqual([
      'INSERT INTO orders(name) VALUES (?); SET held_0 = LAST_INSERT_ID();',
      'INSERT INTO order_items(order_id, quantity) VALUES (held_0, ?);',
      'INSERT INTO outbox(payload) VALUES (CONCAT(?, held_0, ?, held_0, ?, held_0, ?));',
      "DELETE FROM lines WHERE cart = ?; IF ROW_COUNT() <> 2 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'held write failed its guard 3'; END IF;",
    ]);
    expect(part.parameters).toEqual(['Ada', 2, '{"order_id":', ',"note":"not ', '","list":[', ']}', 7]);
    expect(part.ids).toBe("CONCAT_WS(',', held_0)");
  });

  it('puts the generated ids into the caller objects once resolved', () => {
    const { manager } = transaction();
    const held = HeldWrites.hold(manager)!;
    const first = held.add('INSERT INTO a(x) VALUES (?)', [1], { capturesId: true }).insertId!;
    const second = held.add('INSERT INTO a(x) VALUES (?)', [2], { capturesId: true }).insertId!;
    held.resolve('41,42');
    const answer = { id: first, attendees: [{ id: second, ticket_id: 5, rest_url: `/attendees/${second}` }], created: new Date(0) };
    expect(held.resolveIds(answer)).toEqual({
      id: 41,
      attendees: [{ id: 42, ticket_id: 5, rest_url: '/attendees/42' }],
      created: new Date(0),
    });
  });

  it('turns a guard failure of the compound statement back into the caller error', () => {
    const { manager } = transaction();
    const held = HeldWrites.hold(manager)!;
    held.add('UPDATE coupons SET uses = uses + ? WHERE id = ?', [1, 3], { guard: { rows: 1, fails: () => new Error('used up') } });
    const signalled = { driverError: { sqlState: '45000', sqlMessage: 'held write failed its guard 0' } };
    expect(held.failure(signalled)?.message).toBe('used up');
    expect(held.failure({ driverError: { sqlState: '23000', sqlMessage: 'Duplicate entry' } })).toBeNull();
  });

  it('sends what it holds one by one before any other statement of the transaction, with the ids it learns', async () => {
    let nextId = 100;
    const { runner, manager, sent } = transaction((sql) =>
      sql.startsWith('INSERT') ? { insertId: nextId++, affectedRows: 1 } : { affectedRows: 1 },
    );
    const held = HeldWrites.hold(manager)!;
    const order = held.add('INSERT INTO orders(name) VALUES (?)', ['Ada'], { capturesId: true }).insertId!;
    const payload = JSON.stringify({ order_id: order });
    held.add('INSERT INTO outbox(payload) VALUES (?)', [payload], { json: [payload] });
    await runner.query('INSERT INTO payments(order_id) VALUES (?)', [order]);
    expect(sent).toEqual([
      { sql: 'INSERT INTO orders(name) VALUES (?)', parameters: ['Ada'] },
      { sql: 'INSERT INTO outbox(payload) VALUES (?)', parameters: ['{"order_id":100}'] },
      { sql: 'INSERT INTO payments(order_id) VALUES (?)', parameters: [100] },
    ]);
    expect(HeldWrites.of(manager)).toBeUndefined();
  });

  it('drops what it holds on ROLLBACK', async () => {
    const { runner, manager, sent } = transaction();
    HeldWrites.hold(manager)!.add('DELETE FROM lines WHERE cart = ?', [1]);
    await runner.query('ROLLBACK');
    expect(sent.map(({ sql }) => sql)).toEqual(['ROLLBACK']);
  });
});
