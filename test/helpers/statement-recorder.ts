import type { DataSource } from 'typeorm';

/** The statements a data source sent since the last `clear()`, whitespace collapsed and identifier quotes dropped. */
export interface StatementRecorder {
  /** Forgets what was recorded so far. */
  clear(): void;
  /** What was recorded since the last `clear()`. */
  readonly statements: string[];
}

/**
 * Records every statement `dataSource` sends from now on, through its TypeORM logger (which still
 * logs as before), for specs that pin how many round trips a request costs.
 */
export function recordStatements(dataSource: DataSource): StatementRecorder {
  let statements: string[] = [];
  const logger = dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    statements.push(query.replace(/[`"]/g, '').replace(/\s+/g, ' ').trim());
    logQuery(query, parameters, runner);
  };
  return {
    clear: () => {
      statements = [];
    },
    get statements() {
      return statements;
    },
  };
}

/** Drops the statements that open or end a transaction. */
export function withoutTransactionControl(statements: string[]): string[] {
  return statements.filter((statement) => !/^(START TRANSACTION|BEGIN|BEGIN TRANSACTION|COMMIT)$/i.test(statement));
}
