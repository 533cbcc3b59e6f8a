import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { Attendee } from '../attendees/attendee.entity';
import { attendeeNotFound } from '../attendees/attendee-errors';
import { toAttendeeResponse } from '../attendees/attendees.mapper';
import type { AttendeeResponse } from '../attendees/dto/attendee.response';
import type { RequestContext } from '../auth/request-context';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { formatInZone } from '../common/dates/date-format';
import { resolveTimeZone } from '../common/dates/timezone';
import { appConfig } from '../config/app.config';
import { Ticket } from '../tickets/ticket.entity';
import { checkAnswers } from './attendee-answers';
import { storedAttendeeFields } from './attendee-fields';
import { AnswerPlace, attendeeEditClosed, attendeeEditForbidden, invalidAnswers } from './attendee-question-errors';
import { AttendeeQuestionsRepository } from './attendee-questions.repository';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent } from '../access/event-access';

/** Who asks to edit answers: the signed-in user and the cart token of the request. */
export interface AnswerEditor {
  user?: AuthenticatedUser;
  cartToken: string | null;
}

/** A holder of one unit at checkout: `meta` is replaced by the checked answers for tickets with questions. */
export interface AnsweringHolder {
  meta: unknown;
}

function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Attendee questions (docs/attendee-questions.md): answers are checked against the ticket's fields
 * on cart writes, at checkout and when a buyer or a manager edits them; nothing is stored when
 * one is missing or of the wrong type.
 */
@Injectable()
export class AttendeeQuestionsService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: AttendeeQuestionsRepository,
  ) {}

  /**
   * Cart meta entries (`{ticket_id, items: [answers per attendee]}`): each item of a ticket with
   * questions is checked and replaced by its normalised answers. Tickets without questions keep
   * their free-form meta, as before.
   */
  checkCartMeta(entries: Array<{ ticket_id: number; items: Array<Record<string, unknown>> }>, tickets: Map<number, Ticket>): void {
    const places: AnswerPlace[] = [];
    const now = this.clock.now();
    for (const entry of entries) {
      const fields = storedAttendeeFields(tickets.get(entry.ticket_id)?.attendeeInformationFields);
      if (fields.length === 0) continue;
      entry.items = entry.items.map((item, index) => {
        const checked = checkAnswers(fields, item, today(now));
        for (const problem of checked.problems) places.push({ ...problem, ticketId: entry.ticket_id, attendee: index });
        return checked.values;
      });
    }
    if (places.length > 0) throw invalidAnswers(places);
  }

  /** At checkout: every unit of a ticket with questions needs valid answers; they replace the holder's meta. */
  checkCheckoutAnswers(holders: Map<number, AnsweringHolder[]>, tickets: ReadonlyMap<number, Ticket>): void {
    const places: AnswerPlace[] = [];
    const now = this.clock.now();
    for (const [ticketId, units] of holders) {
      const fields = storedAttendeeFields(tickets.get(ticketId)?.attendeeInformationFields);
      if (fields.length === 0) continue;
      units.forEach((holder, index) => {
        const checked = checkAnswers(fields, holder.meta, today(now));
        for (const problem of checked.problems) places.push({ ...problem, ticketId, attendee: index });
        holder.meta = Object.keys(checked.values).length > 0 ? checked.values : null;
      });
    }
    if (places.length > 0) throw invalidAnswers(places);
  }

  /**
   * Replaces an attendee's answers: the event's managers at any time, the attendee's buyer (their
   * user, or the cart token the order was placed with) until ATTENDEE_EDIT_CUTOFF_HOURS before the
   * event starts.
   */
  async updateInformation(
    attendeeId: number,
    information: Record<string, unknown>,
    editor: AnswerEditor,
    context: RequestContext,
  ): Promise<AttendeeResponse> {
    return this.tx.run(async () => {
      const attendee = await this.lockAttendee(attendeeId);
      const event = await this.repository.event(attendee.eventId);
      const ticket = await this.repository.ticket(attendee.ticketId);
      const manages = canManageEvent(editor.user, event);
      if (!manages) {
        if (!(await this.isBuyer(attendee, editor))) throw attendeeEditForbidden(!editor.user);
        const cutoff = new Date(event.startUtc.getTime() - this.config.tickets.attendeeEditCutoffHours * 3_600_000);
        if (this.clock.now().getTime() >= cutoff.getTime()) {
          throw attendeeEditClosed(formatInZone(cutoff, resolveTimeZone(context.siteTimezone) ?? 'UTC'));
        }
      }
      const fields = storedAttendeeFields(ticket.attendeeInformationFields);
      const checked = checkAnswers(fields, information, today(this.clock.now()));
      if (checked.problems.length > 0) {
        // The attendee's position among its order's units of the same ticket, as errors name it.
        const index = await this.repository.countEarlierUnits(attendee);
        throw invalidAnswers(checked.problems.map((problem) => ({ ...problem, ticketId: ticket.id, attendee: index })));
      }
      const meta = Object.keys(checked.values).length > 0 ? JSON.stringify(checked.values) : null;
      const now = this.clock.now();
      await this.repository.setAnswers(attendee.id, meta, now);
      Object.assign(attendee, { meta, updatedAt: now });
      return toAttendeeResponse(attendee, ticket, context, { manage: true, currency: this.config.currency, eventTimezone: event.timezone });
    });
  }

  private async lockAttendee(id: number): Promise<Attendee> {
    const attendee = await this.repository.lockAttendee(id);
    if (!attendee) throw attendeeNotFound();
    return attendee;
  }

  private async isBuyer(attendee: Attendee, editor: AnswerEditor): Promise<boolean> {
    if (editor.user && attendee.userId === editor.user.id) return true;
    if (!editor.cartToken) return false;
    return (await this.repository.orderCartToken(attendee.orderId)) === editor.cartToken;
  }
}
