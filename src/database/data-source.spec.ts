import { DataSource } from 'typeorm';

describe('the TypeORM CLI data source', () => {
  it('is the one DataSource the file exports, as the CLI requires', async () => {
    const exported = Object.values(await import('./data-source')).filter((value) => value instanceof DataSource);
    expect(exported).toHaveLength(1);
  });
});
