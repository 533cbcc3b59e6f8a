/**
 * Money is stored as DECIMAL(12,2) and handled as strings with two decimals ("25.00"), never as
 * floats. Arithmetic goes through integer cents.
 */
export const moneyColumn = {
  to: (value: string | null | undefined) => value,
  from: (value: string | number | null) =>
    value === null || value === undefined ? '0.00' : centsToMoney(moneyToCents(String(value)) ?? 0),
};

const MONEY_PATTERN = /^\s*(\d{1,10})(?:[.,](\d{0,2}))?\s*$/;

/** Cents of a non-negative decimal string ("25", "25.5", "25.50"); null when it is not one. */
export function moneyToCents(value: string): number | null {
  const match = MONEY_PATTERN.exec(value);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}
