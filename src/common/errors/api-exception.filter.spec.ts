import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ApiError } from './api-error';
import { ApiExceptionFilter } from './api-exception.filter';

describe('ApiExceptionFilter.toBody', () => {
  const filter = new ApiExceptionFilter();
  // The filter logs what it does not expect; keep test output quiet.
  beforeAll(() =>
    jest
      .spyOn((filter as unknown as { logger: { error: () => void; warn: () => void } }).logger, 'error')
      .mockImplementation(() => undefined),
  );
  beforeAll(() =>
    jest
      .spyOn((filter as unknown as { logger: { error: () => void; warn: () => void } }).logger, 'warn')
      .mockImplementation(() => undefined),
  );

  it('renders domain errors as they are', () => {
    expect(filter.toBody(new ApiError('ticket-not-found', 'The requested ticket does not exist.', 404))).toEqual({
      code: 'ticket-not-found',
      message: 'The requested ticket does not exist.',
      data: { status: 404 },
    });
  });

  it('turns Nest 404s into rest_no_route and other framework errors into named codes', () => {
    expect(filter.toBody(new NotFoundException()).code).toBe('rest_no_route');
    expect(filter.toBody(new BadRequestException('Unexpected token')).code).toBe('rest_bad_request');
    expect(filter.toBody(new PayloadTooLargeException()).data.status).toBe(413);
  });

  it('answers constraint violations from concurrent changes with 409', () => {
    expect(filter.toBody(Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY' }))).toMatchObject({
      code: 'rest_conflict',
      data: { status: 409 },
    });
    expect(filter.toBody(Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })).data.status).toBe(409);
  });

  it('answers lock contention and an unreachable database with 503', () => {
    expect(filter.toBody(Object.assign(new Error('deadlock'), { code: 'ER_LOCK_DEADLOCK' }))).toMatchObject({
      code: 'database-busy',
      data: { status: 503 },
    });
    expect(filter.toBody(Object.assign(new Error('down'), { code: 'ECONNREFUSED' }))).toMatchObject({
      code: 'db-unavailable',
      data: { status: 503 },
    });
  });

  it('answers a statement stopped by the statement timeout with 503 db-timeout', () => {
    const mariadb = Object.assign(new Error('Query execution was interrupted (max_statement_time exceeded)'), { errno: 1969 });
    expect(filter.toBody(mariadb)).toMatchObject({ code: 'db-timeout', data: { status: 503 } });
    expect(filter.toBody({ message: 'wrapped', driverError: { code: 'ER_QUERY_TIMEOUT', errno: 3024 } })).toMatchObject({
      code: 'db-timeout',
    });
  });

  it('answers a connection the driver marked broken with 503 db-unavailable', () => {
    const closed = Object.assign(new Error("Can't add new command when connection is in closed state"), { fatal: true });
    expect(filter.toBody(closed)).toMatchObject({ code: 'db-unavailable', data: { status: 503 } });
  });

  it('hides anything else behind a generic 500', () => {
    expect(filter.toBody(new Error('secret detail'))).toEqual({
      code: 'internal_server_error',
      message: 'An unexpected error occurred. It has been logged.',
      data: { status: 500 },
    });
  });
});

describe('ApiExceptionFilter.catch', () => {
  it('drops what was set for the answer being built: its ETag, surrogate keys and public caching', () => {
    const headers = new Map<string, string>([
      ['etag', '"an-event"'],
      ['surrogate-key', 'events event-1'],
      ['cache-tag', 'events,event-1'],
      ['cache-control', 'public, no-cache'],
    ]);
    const response = {
      headersSent: false,
      getHeader: (name: string) => headers.get(name.toLowerCase()),
      setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
      removeHeader: (name: string) => headers.delete(name.toLowerCase()),
      status: jest.fn().mockReturnThis(),
      json: jest.fn(),
    };
    const host = { switchToHttp: () => ({ getResponse: () => response }) };
    new ApiExceptionFilter().catch(new ApiError('rest-event-not-found', 'No event.', 404), host as never);
    expect(Object.fromEntries(headers)).toEqual({ 'cache-control': 'private, no-cache' });
    expect(response.status).toHaveBeenCalledWith(404);
  });
});
