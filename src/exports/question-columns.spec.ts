import type { Attendee } from '../attendees/attendee.entity';
import type { AttendeeExportRow } from './export-columns';
import { attendeeCheckins } from './exports.service';
import { answerCell, questionColumns } from './question-columns';

function row(ticketId: number, answers: Record<string, unknown> | null): AttendeeExportRow {
  return {
    attendee: { ticketId } as Attendee,
    ticket: undefined,
    order: undefined,
    event: undefined,
    answers,
    checkins: { first: null, last: null, lists: [] },
    exponent: 2,
  };
}

describe('question columns', () => {
  const fields = (list: Array<{ slug: string; label: string; type?: string }>) =>
    JSON.stringify(list.map((field) => ({ type: 'text', required: false, options: [], description: '', ...field })));

  it('makes one column per slug, headed by the first ticket asking it, filled for the tickets asking it', () => {
    const columns = questionColumns([
      {
        id: 7,
        attendeeInformationFields: fields([
          { slug: 'company', label: 'Company name' },
          { slug: 'table', label: 'Table' },
        ]),
      },
      {
        id: 3,
        attendeeInformationFields: fields([
          { slug: 'company', label: 'Company' },
          { slug: 'diet', label: 'Diet' },
        ]),
      },
      { id: 9, attendeeInformationFields: null },
    ]);
    expect(columns.map((column) => [column.key, column.header])).toEqual([
      ['question:company', 'Company'],
      ['question:diet', 'Diet'],
      ['question:table', 'Table'],
    ]);
    const [company, diet, table] = columns;
    expect(company.value(row(7, { company: 'ACME', table: 'B' }))).toBe('ACME');
    expect(table.value(row(7, { company: 'ACME', table: 'B' }))).toBe('B');
    expect(diet.value(row(3, { diet: ['Vegan', 'No nuts'] }))).toBe('Vegan, No nuts');
    // Free-form registration meta of a ticket that does not ask the question is not an answer.
    expect(diet.value(row(9, { diet: 'x' }))).toBeNull();
    expect(company.value(row(3, null))).toBeNull();
  });

  it('turns answers into cells', () => {
    expect(answerCell(undefined)).toBeNull();
    expect(answerCell([])).toBeNull();
    expect(answerCell(['a', 'b'])).toBe('a, b');
    expect(answerCell(42)).toBe(42);
    expect(answerCell({ nested: true })).toBe('{"nested":true}');
  });

  it('folds check-in positions per attendee: earliest first entry, latest last entry, the lists entered', () => {
    const early = new Date('2026-12-01T10:00:00Z');
    const late = new Date('2026-12-02T10:00:00Z');
    const result = attendeeCheckins(
      [
        { attendeeId: 1, listId: 10, firstEntryAt: late, lastEntryAt: late },
        { attendeeId: 1, listId: 11, firstEntryAt: early, lastEntryAt: early },
        { attendeeId: 2, listId: 12, firstEntryAt: early, lastEntryAt: late },
      ],
      new Map([
        [10, 'Gate'],
        [11, 'VIP'],
      ]),
    );
    expect(result.get(1)).toEqual({ first: early, last: late, lists: ['Gate', 'VIP'] });
    expect(result.get(2)).toEqual({ first: early, last: late, lists: ['#12'] });
  });
});
