import { formatMoney, moneyToNumber } from '../common/money';

/** An amount of money: minor units, and the currency's decimals it is written with. */
export interface MoneyCell {
  minor: number;
  exponent: number;
}

/** A cell of an exported row: text, a number, an amount, a yes/no, a time, or empty. */
export type CellValue = string | number | boolean | Date | MoneyCell | null;

/** First characters that make a spreadsheet read a CSV cell as a formula (OWASP "CSV injection"). */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A text cell safe to open in a spreadsheet: one starting with = + - @ (or a tab or carriage return)
 * gets a leading apostrophe, which spreadsheets read as "this is text" and do not show.
 */
export function neutralizeFormula(text: string): string {
  return text.length > 0 && FORMULA_TRIGGERS.has(text[0]) ? `'${text}` : text;
}

/** A cell as CSV text: times in ISO 8601 UTC, yes/no as `yes`/`no`, amounts with the currency's decimals, text neutralised. */
export function csvCell(value: CellValue): string | number {
  if (value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return formatMoney(value.minor, value.exponent);
  return neutralizeFormula(value);
}

/**
 * A cell as an XLSX value: numbers, amounts and times typed (XLSX text cells are never evaluated as formulas,
 * so they are written as they are).
 */
export function xlsxCell(value: CellValue): string | number | Date | null {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) return moneyToNumber(value.minor, value.exponent);
  return value;
}

/** One column of an export: its key, its header, and how a row fills it. */
export interface ExportColumn<Row> {
  key: string;
  header: string;
  value(row: Row): CellValue;
  /** XLSX column width, in characters. */
  width?: number;
  /** Holds times (XLSX shows them as date and time). */
  time?: boolean;
  /** Holds amounts (XLSX shows them with the currency's decimals). */
  money?: boolean;
}
