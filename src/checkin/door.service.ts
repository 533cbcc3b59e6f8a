import { Inject, Injectable } from '@nestjs/common';
import { Attendee } from '../attendees/attendee.entity';
import { attendeeNotFound } from '../attendees/attendee-errors';
import type { AuthenticatedUser } from '../auth/roles';
import { CLOCK, Clock } from '../common/clock';
import { forbidden, invalidParam } from '../common/errors/api-error';
import { countPages, parsePageRequest, assertPageInRange } from '../common/pagination/pagination';
import type { DoorScanFacts } from '../common/domain-events/domain-event';
import { CheckinListsService } from './checkin-lists.service';
import { toCheckinResponse, toDoorAttendee } from './checkin.mapper';
import { CheckinRepository, HistoryFilters } from './checkin.repository';
import { generateCheckinSecret } from './checkin-secrets';
import { DoorAttendeeResponse, HistoryPage, SearchResponse } from './dto/checkin.response';
import { HistoryQuery, SearchQuery, UpdateDoorAttendeeDto } from './dto/door.dto';
import { checkinListNotFound } from './checkin-errors';
import { TransactionHost } from '../common/database/transaction-host';
import { canManageEvent } from '../access/event-access';
import type { DoorCaller } from './door-route';

export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_RESULTS = 20;
const ORDER_NUMBER = /^\d{1,9}$/;

/**
 * The door besides redeeming: search, history, blocking and replacing secrets, and the default list's
 * record of check-ins made through the attendee `check_in` flag and POST /qr.
 */
@Injectable()
export class DoorService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
    private readonly lists: CheckinListsService,
  ) {}

  async search(query: SearchQuery, caller: DoorCaller): Promise<SearchResponse> {
    // An order number is found by any number of digits (orders 1–99 too), and then only as that order.
    const orderNumber = ORDER_NUMBER.test(query.search);
    if (query.search.length < SEARCH_MIN_LENGTH && !orderNumber) {
      throw invalidParam('search', `search must be at least ${SEARCH_MIN_LENGTH} characters, or an order number`);
    }
    const { list } = await this.lists.readable(query.list, caller);
    const attendees = await this.repository.search(list, query.search, SEARCH_MAX_RESULTS, {
      orderOnly: query.search.length < SEARCH_MIN_LENGTH,
    });
    const positions = await this.repository.positionsOfAttendees(
      list.id,
      attendees.map((attendee) => attendee.id),
    );
    const titles = await this.repository.ticketTitles(attendees.map((attendee) => attendee.ticketId));
    return {
      results: attendees.map((attendee) => toDoorAttendee(attendee, titles.get(attendee.ticketId) ?? '', positions.get(attendee.id))),
    };
  }

  /** Scans, newest first: managers of every event see all; authors their events'. */
  async history(query: HistoryQuery, user: AuthenticatedUser): Promise<HistoryPage> {
    const paging = parsePageRequest(query, 'tickets');
    const filters: HistoryFilters = {
      deviceId: query.device,
      successful: query.successful,
      annulled: query.annulled,
      gate: query.gate,
      managedBy: user,
    };
    if (query.list !== undefined) {
      const list = await this.repository.findList(query.list);
      if (!list) throw invalidParam('list', 'list must be an existing check-in list');
      await this.assertManages(user, list.eventId);
      filters.listId = list.id;
    }
    if (query.post_id !== undefined) {
      if (!(await this.repository.event(query.post_id))) throw invalidParam('post_id', 'post_id must be an existing event');
      await this.assertManages(user, query.post_id);
      filters.eventId = query.post_id;
    }
    const { rows, total } = await this.repository.history(filters, { offset: paging.offset, limit: paging.perPage });
    const totalPages = countPages(total, paging.perPage);
    assertPageInRange(paging.page, totalPages, { kind: 'invalid' });
    return { checkins: rows.map((row) => toCheckinResponse(row.checkin, row.gate)), total, total_pages: totalPages };
  }

  /** PATCH /checkin/attendees/{id}: block or unblock, or replace the secret (the old one then answers `revoked`). */
  async updateAttendee(id: number, input: UpdateDoorAttendeeDto, user: AuthenticatedUser): Promise<DoorAttendeeResponse> {
    const attendee = await this.repository.attendee(id);
    if (!attendee) throw attendeeNotFound();
    await this.assertManages(user, attendee.eventId);
    const now = this.clock.now();
    return this.tx.run(async () => {
      await this.repository.lockAttendee(id, now);
      const current = (await this.repository.attendee(id)) as Attendee;
      if (input.blocked !== undefined) await this.repository.setBlocked(id, input.blocked, now);
      if (input.reissue_secret === true) await this.repository.replaceSecret(current, generateCheckinSecret(), now);
      const updated = (await this.repository.attendee(id)) as Attendee;
      const title = (await this.repository.ticketTitles([updated.ticketId])).get(updated.ticketId) ?? '';
      const list = await this.repository.ensureDefaultList(updated.eventId);
      const [position] = await this.repository.positions(id, [list.id]);
      return toDoorAttendee(updated, title, position);
    });
  }

  /**
   * The `check_in` flag or POST /qr checked the attendee in (`entry`) or undid it (`undo`), inside
   * the caller's transaction which holds the attendee's row: the default list's position and history
   * follow, so its counts agree with the flag. Returns the record, for the CheckInChanged it causes.
   */
  async recordFlag(attendee: Attendee, change: 'entry' | 'undo', userId: number, now: Date): Promise<DoorScanFacts> {
    const list = await this.repository.ensureDefaultList(attendee.eventId);
    const [position] = await this.repository.positions(attendee.id, [list.id]);
    if (change === 'entry') {
      await this.repository.savePosition({
        id: position?.id,
        listId: list.id,
        attendeeId: attendee.id,
        entries: (position?.entries ?? 0) + 1,
        exits: position?.exits ?? 0,
        inside: true,
        lastEntryAt: now,
        ...(position?.firstEntryAt ? {} : { firstEntryAt: now }),
      });
    } else if (position) {
      await this.repository.resetPosition(list.id, attendee.id);
    }
    const type = change === 'entry' ? 'entry' : 'exit';
    const checkin = await this.repository.insertCheckin({
      listId: list.id,
      eventId: attendee.eventId,
      attendeeId: attendee.id,
      type,
      scannedAt: now,
      createdAt: now,
      successful: true,
      forced: false,
      reason: null,
      deviceId: null,
      userId,
      nonceScope: null,
      nonce: null,
      answerStatus: 200,
      answer: '{}',
    });
    return { listId: list.id, listName: list.name, checkinId: checkin.id, type, forced: false, deviceId: null, gate: null, at: now };
  }

  private async assertManages(user: AuthenticatedUser, eventId: number): Promise<void> {
    const event = await this.repository.event(eventId);
    if (!event) throw checkinListNotFound();
    if (!canManageEvent(user, event)) throw forbidden(false, 'Sorry, you are not allowed to see check-in of this event.');
  }
}
