import { PeriodicTask } from './periodic-task';

/** A round that finishes when the test says so. */
function pendingRound<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe('PeriodicTask', () => {
  const logger = { error: jest.fn(), warn: jest.fn() };

  beforeEach(() => {
    jest.useFakeTimers();
    logger.error.mockReset();
    logger.warn.mockReset();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs a round at each tick on a timer that does not keep the process alive', async () => {
    const round = jest.fn(() => Promise.resolve());
    const setInterval = jest.spyOn(global, 'setInterval');
    const task = new PeriodicTask('sweep', round, logger);
    task.start(100);
    await jest.advanceTimersByTimeAsync(350);
    expect(round).toHaveBeenCalledTimes(3);
    expect((setInterval.mock.results[0].value as NodeJS.Timeout).hasRef()).toBe(false);
    await task.stop();
    setInterval.mockRestore();
  });

  it('starts nothing for an interval of 0', async () => {
    const round = jest.fn(() => Promise.resolve());
    const task = new PeriodicTask('sweep', round, logger);
    task.start(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(round).not.toHaveBeenCalled();
  });

  it('skips the ticks that find the last round still running', async () => {
    const first = pendingRound<void>();
    const round = jest.fn().mockReturnValueOnce(first.promise).mockResolvedValue(undefined);
    const task = new PeriodicTask('sweep', round, logger);
    task.start(100);
    await jest.advanceTimersByTimeAsync(450);
    expect(round).toHaveBeenCalledTimes(1);
    first.resolve();
    await jest.advanceTimersByTimeAsync(100);
    expect(round).toHaveBeenCalledTimes(2);
    await task.stop();
  });

  it('runs a round asked for by hand after the one in progress, never beside it, and gives its result', async () => {
    const first = pendingRound<number>();
    let running = 0;
    let mostAtOnce = 0;
    let calls = 0;
    const round = jest.fn(async (): Promise<number> => {
      calls += 1;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      const result = calls === 1 ? await first.promise : calls;
      running -= 1;
      return result;
    });
    const task = new PeriodicTask('sweep', round, logger);
    task.start(100);
    await jest.advanceTimersByTimeAsync(100);
    expect(round).toHaveBeenCalledTimes(1);

    const manual = task.runNow();
    const other = task.run(() => Promise.resolve('other'));
    await jest.advanceTimersByTimeAsync(0);
    expect(round).toHaveBeenCalledTimes(1);

    first.resolve(1);
    await expect(manual).resolves.toBe(2);
    await expect(other).resolves.toBe('other');
    expect(mostAtOnce).toBe(1);
    await task.stop();
  });

  it('skips a tick while a round asked for by hand is running', async () => {
    const manualRound = pendingRound<void>();
    const round = jest.fn(() => Promise.resolve());
    const task = new PeriodicTask('sweep', round, logger);
    task.start(100);
    const manual = task.run(() => manualRound.promise);
    await jest.advanceTimersByTimeAsync(250);
    expect(round).not.toHaveBeenCalled();
    manualRound.resolve();
    await manual;
    await jest.advanceTimersByTimeAsync(100);
    expect(round).toHaveBeenCalledTimes(1);
    await task.stop();
  });

  it("logs a failed round of the timer at the task's level and runs again at the next tick", async () => {
    const error = new Error('database gone');
    const round = jest.fn().mockRejectedValueOnce(error).mockResolvedValue(undefined);
    const task = new PeriodicTask('tally fold', round, logger, 'warn');
    task.start(100);
    await jest.advanceTimersByTimeAsync(100);
    expect(logger.warn).toHaveBeenCalledWith({ err: error }, 'tally fold failed');
    expect(logger.error).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(100);
    expect(round).toHaveBeenCalledTimes(2);
    await task.stop();
  });

  it('hands the failure of a round asked for by hand to its caller, and runs the next one', async () => {
    const round = jest.fn(() => Promise.resolve('next'));
    const task = new PeriodicTask('sweep', round, logger);
    const failing = task.run(() => Promise.reject(new Error('boom')));
    const next = task.runNow();
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('stops the timer and waits for the round in progress and the rounds asked for behind it', async () => {
    const first = pendingRound<void>();
    const second = pendingRound<void>();
    const round = jest.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise).mockResolvedValue(undefined);
    const task = new PeriodicTask('sweep', round, logger);
    task.start(100);
    await jest.advanceTimersByTimeAsync(100);
    void task.runNow();
    let stopped = false;
    const stopping = task.stop().then(() => {
      stopped = true;
    });
    first.resolve();
    await jest.advanceTimersByTimeAsync(0);
    expect(round).toHaveBeenCalledTimes(2);
    expect(stopped).toBe(false);
    second.resolve();
    await stopping;
    await jest.advanceTimersByTimeAsync(1000);
    expect(round).toHaveBeenCalledTimes(2);
  });

  it('stops at once when no round is running', async () => {
    const task = new PeriodicTask('sweep', () => Promise.resolve(), logger);
    task.start(100);
    await expect(task.stop()).resolves.toBeUndefined();
  });
});
