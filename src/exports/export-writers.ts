import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { CellValue, csvCell, xlsxCell } from './export-cells';
import type { ExportColumn } from './export-columns';
import type { ExportFormat, ExportKind } from './export-job.entity';

/** Writes the rows of a table to a stream in one format; rows go out as they are given. */
export interface TableWriter {
  /** Writes rows; resolves once the output can take more (backpressure), so memory stays bounded. */
  writeRows(rows: CellValue[][]): Promise<void>;
  /** Ends the file; resolves when everything is handed to the output. */
  finish(): Promise<void>;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

const SHEET_NAMES: Record<ExportKind, string> = { attendees: 'Attendees', orders: 'Orders' };

/** The file name offered for download: `attendees-2026-11-26.csv`. */
export function exportFileName(kind: ExportKind, format: ExportFormat, at: Date): string {
  return `${kind}-${at.toISOString().slice(0, 10)}.${format}`;
}

async function drained(output: Writable): Promise<void> {
  if (output.writableNeedDrain && !output.destroyed) await Promise.race([once(output, 'drain'), once(output, 'close')]);
}

/**
 * CSV (RFC 4180, UTF-8 with a byte order mark so that spreadsheets read the accents) through
 * csv-stringify, every text cell neutralised against formula injection.
 */
function csvWriter(output: Writable, columns: Array<ExportColumn<unknown>>): TableWriter {
  const stringifier = stringify({ bom: true, header: true, columns: columns.map((column) => column.header) });
  stringifier.pipe(output);
  const done = new Promise<void>((resolve, reject) => {
    output.once('finish', resolve);
    output.once('error', reject);
    stringifier.once('error', reject);
  });
  return {
    async writeRows(rows) {
      for (const row of rows) {
        if (!stringifier.write(row.map(csvCell))) await Promise.race([once(stringifier, 'drain'), once(output, 'close')]);
      }
      await drained(output);
    },
    async finish() {
      stringifier.end();
      await done;
    },
  };
}

/**
 * XLSX through exceljs's streaming WorkbookWriter: each row is committed (written out) as it comes.
 * exceljs is loaded on the first XLSX export: it is the heaviest module of the app to load (about
 * 0.3 s), which every start and every test file would otherwise pay.
 */
async function xlsxWriter(
  output: Writable,
  columns: Array<ExportColumn<unknown>>,
  sheetName: string,
  moneyExponent: number,
): Promise<TableWriter> {
  const { default: ExcelJS } = await import('exceljs');
  // Styles for the time and money columns' formats; the fastest deflate level: compression took about half the time at the default.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns.map((column) => ({
    header: column.header,
    key: column.key,
    width: column.width ?? 16,
    ...(column.time ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
    // Amounts with exactly the currency's decimals: 4500 yen, 45.00 euros, 4.500 dinars.
    ...(column.money ? { style: { numFmt: moneyExponent === 0 ? '0' : `0.${'0'.repeat(moneyExponent)}` } } : {}),
  }));
  const done = new Promise<void>((resolve, reject) => {
    output.once('finish', resolve);
    output.once('error', reject);
  });
  return {
    async writeRows(rows) {
      for (const row of rows) sheet.addRow(row.map(xlsxCell)).commit();
      await drained(output);
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      await done;
    },
  };
}

export async function createTableWriter(
  format: ExportFormat,
  kind: ExportKind,
  output: Writable,
  columns: Array<ExportColumn<unknown>>,
  moneyExponent: number,
): Promise<TableWriter> {
  return format === 'csv' ? csvWriter(output, columns) : xlsxWriter(output, columns, SHEET_NAMES[kind], moneyExponent);
}
