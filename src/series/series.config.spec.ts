import { loadSeriesConfig } from './series.config';

describe('series settings', () => {
  it('defaults to a 24-month horizon with the job on, hourly', () => {
    expect(loadSeriesConfig({})).toEqual({ horizonMonths: 24, worker: true, workerIntervalSeconds: 3600 });
  });

  it('reads the settings', () => {
    expect(loadSeriesConfig({ RECURRENCE_HORIZON_MONTHS: '60', SERIES_WORKER: 'false', SERIES_WORKER_INTERVAL_SECONDS: '30' })).toEqual({
      horizonMonths: 60,
      worker: false,
      workerIntervalSeconds: 30,
    });
  });

  it('refuses bad values, naming the setting', () => {
    expect(() => loadSeriesConfig({ RECURRENCE_HORIZON_MONTHS: '0' })).toThrow(/RECURRENCE_HORIZON_MONTHS/);
    expect(() => loadSeriesConfig({ RECURRENCE_HORIZON_MONTHS: '61' })).toThrow(/RECURRENCE_HORIZON_MONTHS/);
    expect(() => loadSeriesConfig({ RECURRENCE_HORIZON_MONTHS: 'two' })).toThrow(/RECURRENCE_HORIZON_MONTHS/);
    expect(() => loadSeriesConfig({ SERIES_WORKER: 'maybe' })).toThrow(/SERIES_WORKER/);
    expect(() => loadSeriesConfig({ SERIES_WORKER_INTERVAL_SECONDS: '0' })).toThrow(/SERIES_WORKER_INTERVAL_SECONDS/);
  });
});
