import { storedAttendeeFields } from '../attendee-questions/attendee-fields';
import type { Ticket } from '../tickets/ticket.entity';
import type { CellValue, ExportColumn } from './export-cells';

/** What a question's cell reads of an export row: the attendee's ticket and its parsed answers. */
interface AnsweredRow {
  attendee: { ticketId: number };
  answers: Record<string, unknown> | null;
}

/** An answer as a cell: text and numbers as they are, a checkbox's choices joined by ", ". */
export function answerCell(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.length > 0 ? value.map(String).join(', ') : null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/**
 * One column per attendee question of `tickets`, pure: questions are answered by slug, so tickets
 * asking the same slug share a column (headed by the first ticket's label, tickets by id); a cell is
 * filled only for attendees of a ticket asking that question.
 */
export function questionColumns<Row extends AnsweredRow>(
  tickets: Array<Pick<Ticket, 'id' | 'attendeeInformationFields'>>,
): Array<ExportColumn<Row>> {
  const bySlug = new Map<string, { label: string; ticketIds: Set<number> }>();
  for (const ticket of [...tickets].sort((a, b) => a.id - b.id)) {
    for (const field of storedAttendeeFields(ticket.attendeeInformationFields)) {
      const question = bySlug.get(field.slug) ?? { label: field.label, ticketIds: new Set<number>() };
      question.ticketIds.add(ticket.id);
      bySlug.set(field.slug, question);
    }
  }
  return [...bySlug.entries()].map(([slug, question]) => ({
    key: `question:${slug}`,
    header: question.label,
    width: 24,
    value: (row: Row) => (question.ticketIds.has(row.attendee.ticketId) ? answerCell(row.answers?.[slug]) : null),
  }));
}
