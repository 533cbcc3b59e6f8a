import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import type { AuthenticatedUser } from '../auth/roles';
import { insertedId } from '../common/database/inserted-id';
import { Event } from '../events/event.entity';
import { escapeLike } from '../posts/post-query';
import { Ticket } from '../tickets/ticket.entity';
import { CheckinList } from './checkin-list.entity';
import { CheckinPosition } from './checkin-position.entity';
import { Checkin } from './checkin.entity';
import { generateSyncKey } from './checkin-secrets';
import { Device } from './device.entity';
import { parseIdList } from './id-list';
import { GateCounts, ListCounts, NO_COUNTS } from './door-counts';
import { RevokedSecret } from './revoked-secret.entity';
import { SqlDialect } from '../database/sql-dialect';
import { VALID_TICKET_ORDER_STATUSES } from '../orders/order-status';
import { TransactionHost } from '../common/database/transaction-host';
import { managedEventRestriction } from '../access/event-access';

/** The event facts the door needs: who manages it, and its days. */
export type DoorEvent = Pick<Event, 'id' | 'authorId' | 'title' | 'startLocal' | 'endLocal' | 'timezone'>;
const DOOR_EVENT_COLUMNS = { id: true, authorId: true, title: true, startLocal: true, endLocal: true, timezone: true } as const;

/** Order statuses a list counts as its positions: valid ones, and pending ones where the list admits them. */

export interface HistoryFilters {
  listId?: number;
  eventId?: number;
  deviceId?: number;
  successful?: boolean;
  /** Scans through the gate of this name (devices of that name). */
  gate?: string;
  annulled?: boolean;
  /** Only the events this caller manages (authors see their own events' history). */
  managedBy: AuthenticatedUser;
}

/** Which check-in lists to read: of one event, of some ids, of the events a caller manages. */
export interface CheckinListFilter {
  eventId?: number;
  ids?: number[];
  managedBy?: AuthenticatedUser;
  /** Only the lists of these events (an API token limited to them). */
  eventIds?: readonly number[];
}

/**
 * The attendee's columns a scan needs: the decision, the door's answer (toDoorAttendee) and the
 * outbox message (attendeeData); fewer columns, less to build and hydrate on every scan.
 */
const SCAN_ATTENDEE_COLUMNS = [
  'id',
  'orderId',
  'ticketId',
  'eventId',
  'holderName',
  'holderEmail',
  'orderStatus',
  'checkinSecret',
  'checkinBlocked',
  'checkinSource',
] as const satisfies ReadonlyArray<keyof Attendee>;

/** What one scan is decided on (CheckinRepository.scanFacts): the attendee with SCAN_ATTENDEE_COLUMNS only. */
export interface ScanFacts {
  attendee: Attendee;
  ticketTitle: string;
  /** The attendee's positions on the lists asked for (none where it never scanned). */
  positions: CheckinPosition[];
  /** The check-in already recorded under the scan's nonce. */
  priorCheckinId: number | null;
}

export interface CheckinWithGate {
  checkin: Checkin;
  gate: string | null;
}

/** A check-in to write: what every writer sets; the nonce's digest and the annulment are the door's. */
export type NewCheckin = Omit<Checkin, 'id' | 'requestHash' | 'annulledAt' | 'annulledDeviceId' | 'annulledUserId'> &
  Partial<Pick<Checkin, 'requestHash'>>;

/** One scan that still counts, as an annulment recomputes the position from them. */
export interface CountingScan {
  id: number;
  type: string;
  scannedAt: Date;
}

/** Every statement of the check-in module. */
@Injectable()
export class CheckinRepository {
  constructor(private readonly tx: TransactionHost) {}

  // ---------------------------------------------------------------- events and tickets

  events(ids: number[]): Promise<DoorEvent[]> {
    const manager = this.tx.manager;
    if (ids.length === 0) return Promise.resolve([]);
    return manager.find(Event, { select: DOOR_EVENT_COLUMNS, where: { id: In([...new Set(ids)]) } });
  }

  event(id: number): Promise<DoorEvent | null> {
    const manager = this.tx.manager;
    return manager.findOne(Event, { select: DOOR_EVENT_COLUMNS, where: { id } });
  }

  tickets(eventId: number): Promise<Array<Pick<Ticket, 'id' | 'name'>>> {
    const manager = this.tx.manager;
    return manager.find(Ticket, { select: { id: true, name: true }, where: { eventId }, order: { id: 'ASC' } });
  }

  /** How many of `ids` are tickets of the event. */
  countEventTickets(eventId: number, ids: number[]): Promise<number> {
    const manager = this.tx.manager;
    return manager.count(Ticket, { where: { id: In(ids), eventId } });
  }

  async ticketTitles(ids: number[]): Promise<Map<number, string>> {
    const manager = this.tx.manager;
    if (ids.length === 0) return new Map();
    const tickets = await manager.find(Ticket, { select: { id: true, name: true }, where: { id: In([...new Set(ids)]) } });
    return new Map(tickets.map((ticket) => [ticket.id, ticket.name]));
  }

  // ---------------------------------------------------------------- lists

  findList(id: number): Promise<CheckinList | null> {
    const manager = this.tx.manager;
    return manager.findOne(CheckinList, { where: { id } });
  }

  findLists(ids: number[]): Promise<CheckinList[]> {
    const manager = this.tx.manager;
    if (ids.length === 0) return Promise.resolve([]);
    return manager.find(CheckinList, { where: { id: In(ids) }, order: { id: 'ASC' } });
  }

  /** Lists of these events (all events when undefined), oldest first; only of the events `managedBy` manages when set. */
  listLists(filter: CheckinListFilter): Promise<CheckinList[]> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(CheckinList, 'list').orderBy('list.id', 'ASC');
    if (filter.eventId !== undefined) builder.andWhere('list.eventId = :eventId', { eventId: filter.eventId });
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return Promise.resolve([]);
      builder.andWhere('list.id IN (:...listIds)', { listIds: filter.ids });
    }
    if (filter.eventIds !== undefined) {
      if (filter.eventIds.length === 0) return Promise.resolve([]);
      builder.andWhere('list.eventId IN (:...scopeEventIds)', { scopeEventIds: [...filter.eventIds] });
    }
    const managedEvent = filter.managedBy === undefined ? null : managedEventRestriction(filter.managedBy, builder);
    if (managedEvent !== null) builder.innerJoin(Event, 'event', 'event.id = list.eventId').andWhere(managedEvent);
    return builder.getMany();
  }

  /**
   * The event's default list, created on first use. Of several creating it at once the unique index
   * keeps one: the others' INSERT updates nothing (`ON DUPLICATE KEY UPDATE` / `ON CONFLICT DO
   * UPDATE` of the key to itself; on MariaDB it waits for the creator's commit and then holds the
   * row), and the list is read with a locking read, which sees the committed row even inside a
   * transaction whose snapshot is older than it. A plain read there does not: twenty parallel first
   * check-ins answered 500 (EntityNotFoundError) before. The racers queue on the new row once; every
   * later call finds the list with the first, plain read and locks nothing.
   */
  async ensureDefaultList(eventId: number): Promise<CheckinList> {
    const manager = this.tx.manager;
    const existing = await manager.findOne(CheckinList, { where: { defaultEventId: eventId } });
    if (existing) return existing;
    await manager
      .createQueryBuilder()
      .insert()
      .into(CheckinList)
      .values({ eventId, name: 'Default', defaultEventId: eventId, ticketIds: '[]', syncKey: generateSyncKey() })
      .orUpdate(['default_event_id'], ['default_event_id'])
      .updateEntity(false)
      .execute();
    const query = manager.createQueryBuilder(CheckinList, 'list').where('list.defaultEventId = :eventId', { eventId });
    // Outside a transaction every read sees the latest commit (and a locking read needs a transaction).
    const inTransaction = manager.queryRunner?.isTransactionActive === true;
    const created = await (inTransaction ? SqlDialect.of(manager).forUpdate(query) : query).getOne();
    if (!created) throw new Error(`The default check-in list of event ${eventId} could not be created`);
    return created;
  }

  async insertList(values: Partial<CheckinList>): Promise<CheckinList> {
    const manager = this.tx.manager;
    const saved = await manager.save(CheckinList, manager.create(CheckinList, values));
    return manager.findOneOrFail(CheckinList, { where: { id: saved.id } });
  }

  async updateList(id: number, values: Partial<CheckinList>): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(CheckinList, { id }, values);
  }

  async deleteList(id: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.delete(CheckinPosition, { listId: id });
    await manager.delete(CheckinList, { id });
  }

  async hasCheckins(listId: number): Promise<boolean> {
    const manager = this.tx.manager;
    return (await manager.count(Checkin, { where: { listId }, take: 1 })) > 0;
  }

  /**
   * The counts of each list: attendees it admits (one grouped query over the lists' events), and
   * those that entered / are inside (one grouped query over the positions). Per ticket when `byTicket`.
   */
  async counts(lists: CheckinList[]): Promise<Map<number, ListCounts>> {
    const perTicket = await this.ticketCounts(lists);
    const result = new Map<number, ListCounts>();
    for (const list of lists) {
      const total = { ...NO_COUNTS };
      for (const counts of perTicket.get(list.id)?.values() ?? []) {
        total.position += counts.position;
        total.checkin += counts.checkin;
        total.inside += counts.inside;
      }
      result.set(list.id, total);
    }
    return result;
  }

  /** Per list, per ticket: position, checkin and inside counts. */
  async ticketCounts(lists: CheckinList[]): Promise<Map<number, Map<number, ListCounts>>> {
    const manager = this.tx.manager;
    const result = new Map<number, Map<number, ListCounts>>(lists.map((list) => [list.id, new Map()]));
    if (lists.length === 0) return result;
    const positions = await manager
      .createQueryBuilder(Attendee, 'attendee')
      .select('attendee.eventId', 'eventId')
      .addSelect('attendee.ticketId', 'ticketId')
      .addSelect('attendee.orderStatus', 'orderStatus')
      .addSelect('COUNT(*)', 'total')
      .where('attendee.eventId IN (:...eventIds)', { eventIds: [...new Set(lists.map((list) => list.eventId))] })
      .groupBy('attendee.eventId')
      .addGroupBy('attendee.ticketId')
      .addGroupBy('attendee.orderStatus')
      .getRawMany<{ eventId: number | string; ticketId: number | string; orderStatus: string; total: number | string }>();
    const entered = await manager
      .createQueryBuilder(CheckinPosition, 'position')
      .innerJoin(Attendee, 'attendee', 'attendee.id = position.attendeeId')
      .select('position.listId', 'listId')
      .addSelect('attendee.ticketId', 'ticketId')
      .addSelect('COUNT(*)', 'entered')
      .addSelect('SUM(CASE WHEN position.inside THEN 1 ELSE 0 END)', 'inside')
      .where('position.listId IN (:...listIds)', { listIds: lists.map((list) => list.id) })
      .andWhere('position.entries > 0')
      .groupBy('position.listId')
      .addGroupBy('attendee.ticketId')
      .getRawMany<{ listId: number | string; ticketId: number | string; entered: number | string; inside: number | string | null }>();
    const slot = (listId: number, ticketId: number): ListCounts => {
      const tickets = result.get(listId) as Map<number, ListCounts>;
      let counts = tickets.get(ticketId);
      if (!counts) tickets.set(ticketId, (counts = { ...NO_COUNTS }));
      return counts;
    };
    for (const list of lists) {
      const ticketIds = parseIdList(list.ticketIds);
      const statuses: string[] = list.includePending ? [...VALID_TICKET_ORDER_STATUSES, 'pending'] : [...VALID_TICKET_ORDER_STATUSES];
      for (const row of positions) {
        if (Number(row.eventId) !== list.eventId || !statuses.includes(row.orderStatus)) continue;
        if (ticketIds.length > 0 && !ticketIds.includes(Number(row.ticketId))) continue;
        slot(list.id, Number(row.ticketId)).position += Number(row.total);
      }
    }
    for (const row of entered) {
      const counts = slot(Number(row.listId), Number(row.ticketId));
      counts.checkin += Number(row.entered);
      counts.inside += Number(row.inside ?? 0);
    }
    return result;
  }

  // ---------------------------------------------------------------- attendees and positions

  attendeeBySecret(secret: string): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { checkinSecret: secret } });
  }

  attendee(id: number): Promise<Attendee | null> {
    const manager = this.tx.manager;
    return manager.findOne(Attendee, { where: { id } });
  }

  revokedSecret(secret: string): Promise<RevokedSecret | null> {
    const manager = this.tx.manager;
    return manager.findOne(RevokedSecret, { where: { secret } });
  }

  /**
   * Takes the attendee's row lock for the rest of the transaction, and moves `updated_at` so the
   * sync hands the change out: every scan of one ticket queues here, whatever list or gate.
   */
  async lockAttendee(attendeeId: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ updatedAt: now })
      .where('id = :attendeeId', { attendeeId })
      .callListeners(false)
      .execute();
  }

  /**
   * Takes the row lock of the attendee of one of these events holding `secret`, and moves its
   * `updated_at` so the sync hands the change out: every scan of one ticket queues here, whatever
   * list or gate. Locks nothing when nobody (of these events) holds the secret. No count depends
   * on `updated_at`, so the write calls no listeners: it renews no count cache generation.
   */
  async lockAttendeeBySecret(secret: string, eventIds: number[], now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ updatedAt: now })
      .where('checkin_secret = :secret AND event_id IN (:...eventIds)', { secret, eventIds })
      .callListeners(false)
      .execute();
  }

  /**
   * What a scan decides on, in one statement: the attendee (by its secret or id, of these events),
   * its ticket's title, its positions on these lists, and the id of the check-in already recorded
   * under the nonce, if any. Read after the attendee's row lock is taken, so it is the fresh state.
   */
  async scanFacts(
    holder: { secret: string } | { id: number },
    eventIds: number[],
    listIds: number[],
    nonce: { scope: string; nonce: string } | null,
  ): Promise<ScanFacts | null> {
    const manager = this.tx.manager;
    const builder = manager
      .createQueryBuilder(Attendee, 'attendee')
      .select(SCAN_ATTENDEE_COLUMNS.map((column) => `attendee.${column}`))
      .leftJoin(Ticket, 'ticket', 'ticket.id = attendee.ticketId')
      .addSelect('ticket.name', 'scan_ticket_title')
      .leftJoinAndMapMany(
        'attendee.scanPositions',
        CheckinPosition,
        'position',
        'position.attendeeId = attendee.id AND position.listId IN (:...listIds)',
        {
          listIds,
        },
      )
      .where('attendee.eventId IN (:...eventIds)', { eventIds });
    if ('secret' in holder) builder.andWhere('attendee.checkinSecret = :secret', { secret: holder.secret });
    else builder.andWhere('attendee.id = :attendeeId', { attendeeId: holder.id });
    if (nonce) {
      builder.addSelect(
        '(SELECT earlier.id FROM checkins earlier WHERE earlier.nonce_scope = :nonceScope AND earlier.nonce = :nonce)',
        'scan_prior_id',
      );
      builder.setParameters({ nonceScope: nonce.scope, nonce: nonce.nonce });
    }
    const { entities, raw } = await builder.getRawAndEntities<{
      scan_ticket_title: string | null;
      scan_prior_id?: number | string | null;
    }>();
    const attendee = entities[0] as (Attendee & { scanPositions?: CheckinPosition[] }) | undefined;
    if (!attendee) return null;
    const positions = attendee.scanPositions ?? [];
    delete attendee.scanPositions;
    const prior = raw[0]?.scan_prior_id;
    return {
      attendee,
      ticketTitle: raw[0]?.scan_ticket_title ?? '',
      positions,
      priorCheckinId: prior === null || prior === undefined ? null : Number(prior),
    };
  }

  findCheckin(id: number): Promise<Checkin | null> {
    const manager = this.tx.manager;
    return manager.findOne(Checkin, { where: { id } });
  }

  async positions(attendeeId: number, listIds: number[]): Promise<CheckinPosition[]> {
    const manager = this.tx.manager;
    if (listIds.length === 0) return [];
    return manager.find(CheckinPosition, { where: { attendeeId, listId: In(listIds) } });
  }

  async positionsOfAttendees(listId: number, attendeeIds: number[]): Promise<Map<number, CheckinPosition>> {
    const manager = this.tx.manager;
    if (attendeeIds.length === 0) return new Map();
    const rows = await manager.find(CheckinPosition, { where: { listId, attendeeId: In(attendeeIds) } });
    return new Map(rows.map((row) => [row.attendeeId, row]));
  }

  async savePosition(position: Partial<CheckinPosition> & { listId: number; attendeeId: number }): Promise<void> {
    const manager = this.tx.manager;
    if (position.id) await manager.update(CheckinPosition, { id: position.id }, position);
    else await manager.createQueryBuilder().insert().into(CheckinPosition).values(position).updateEntity(false).execute();
  }

  async resetPosition(listId: number, attendeeId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(CheckinPosition, { listId, attendeeId }, { entries: 0, exits: 0, inside: false });
  }

  /** Sets the attendee's `checked_in` flag for an entry on the default list, if not set. */
  async flagCheckedIn(attendeeId: number, at: Date, userId: number | null): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ checkedIn: true, checkedInAt: at, checkinSource: 'app', checkinUserId: userId })
      .where('id = :attendeeId AND checked_in = :notYet', { attendeeId, notYet: false })
      .execute();
  }

  async setBlocked(attendeeId: number, blocked: boolean, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(Attendee, { id: attendeeId }, { checkinBlocked: blocked, updatedAt: now });
  }

  async replaceSecret(attendee: Attendee, secret: string, now: Date): Promise<void> {
    const manager = this.tx.manager;
    if (attendee.checkinSecret) {
      await manager.insert(RevokedSecret, {
        secret: attendee.checkinSecret,
        attendeeId: attendee.id,
        eventId: attendee.eventId,
        revokedAt: now,
      });
    }
    await manager.update(Attendee, { id: attendee.id }, { checkinSecret: secret, updatedAt: now });
  }

  // ---------------------------------------------------------------- history

  async insertCheckin(values: NewCheckin): Promise<Checkin> {
    const manager = this.tx.manager;
    const result = await manager.createQueryBuilder().insert().into(Checkin).values(values).updateEntity(false).execute();
    const id = insertedId(result.raw);
    return Object.assign(new Checkin(), values, { id });
  }

  async storeAnswer(id: number, status: number, answer: string): Promise<void> {
    const manager = this.tx.manager;
    await manager.update(Checkin, { id }, { answerStatus: status, answer });
  }

  findByNonce(nonceScope: string, nonce: string): Promise<Checkin | null> {
    const manager = this.tx.manager;
    return manager.findOne(Checkin, { where: { nonceScope, nonce } });
  }

  /** The last successful entry of the attendee on the list, with the gate's name (one statement). */
  async lastEntry(listId: number, attendeeId: number): Promise<CheckinWithGate | null> {
    const manager = this.tx.manager;
    const { entities, raw } = await manager
      .createQueryBuilder(Checkin, 'checkin')
      .leftJoin(Device, 'device', 'device.id = checkin.deviceId')
      .addSelect('device.name', 'gate_name')
      .where('checkin.listId = :listId AND checkin.attendeeId = :attendeeId', { listId, attendeeId })
      .andWhere('checkin.successful = :successful AND checkin.type = :type', { successful: true, type: 'entry' })
      .andWhere('checkin.annulledAt IS NULL')
      .orderBy('checkin.id', 'DESC')
      .limit(1)
      .getRawAndEntities<{ gate_name: string | null }>();
    if (!entities[0]) return null;
    return { checkin: entities[0], gate: raw[0]?.gate_name ?? null };
  }

  async deviceName(deviceId: number | null): Promise<string | null> {
    const manager = this.tx.manager;
    if (deviceId === null) return null;
    return (await manager.findOne(Device, { select: { id: true, name: true }, where: { id: deviceId } }))?.name ?? null;
  }

  async history(filters: HistoryFilters, paging: { offset: number; limit: number }): Promise<{ rows: CheckinWithGate[]; total: number }> {
    const manager = this.tx.manager;
    const builder = manager.createQueryBuilder(Checkin, 'checkin');
    if (filters.listId !== undefined) builder.andWhere('checkin.listId = :listId', { listId: filters.listId });
    if (filters.eventId !== undefined) builder.andWhere('checkin.eventId = :eventId', { eventId: filters.eventId });
    if (filters.deviceId !== undefined) builder.andWhere('checkin.deviceId = :deviceId', { deviceId: filters.deviceId });
    if (filters.successful !== undefined) builder.andWhere('checkin.successful = :successful', { successful: filters.successful });
    if (filters.annulled !== undefined)
      builder.andWhere(filters.annulled ? 'checkin.annulledAt IS NOT NULL' : 'checkin.annulledAt IS NULL');
    if (filters.gate !== undefined) {
      // The gate is the device's name: the scans of the devices so named (IDX_checkins_device).
      builder.andWhere('checkin.deviceId IN (SELECT gate.id FROM checkin_devices gate WHERE gate.name = :gate)', { gate: filters.gate });
    }
    const managedEvent = managedEventRestriction(filters.managedBy, builder);
    if (managedEvent !== null) builder.innerJoin(Event, 'event', 'event.id = checkin.eventId').andWhere(managedEvent);
    const total = await builder.getCount();
    const checkins = total === 0 ? [] : await builder.orderBy('checkin.id', 'DESC').offset(paging.offset).limit(paging.limit).getMany();
    const deviceIds = [...new Set(checkins.map((checkin) => checkin.deviceId).filter((id): id is number => id !== null))];
    const devices = deviceIds.length ? await manager.find(Device, { select: { id: true, name: true }, where: { id: In(deviceIds) } }) : [];
    const names = new Map(devices.map((device) => [device.id, device.name]));
    return {
      rows: checkins.map((checkin) => ({ checkin, gate: checkin.deviceId === null ? null : (names.get(checkin.deviceId) ?? null) })),
      total,
    };
  }

  /**
   * Annuls a check-in once: the conditional UPDATE lets one of two racing annulments win (the
   * other changes nothing and is told the check-in is already annulled).
   */
  async annulCheckin(id: number, by: { deviceId: number | null; userId: number | null }, at: Date): Promise<boolean> {
    const manager = this.tx.manager;
    const result = await manager
      .createQueryBuilder()
      .update(Checkin)
      .set({ annulledAt: at, annulledDeviceId: by.deviceId, annulledUserId: by.userId })
      .where('id = :id AND annulled_at IS NULL', { id })
      .execute();
    return Boolean(result.affected);
  }

  /** The attendee's scans on the list that still count (successful, not annulled), oldest first. */
  countingScans(listId: number, attendeeId: number): Promise<CountingScan[]> {
    const manager = this.tx.manager;
    return manager
      .createQueryBuilder(Checkin, 'checkin')
      .select(['checkin.id', 'checkin.type', 'checkin.scannedAt'])
      .where('checkin.attendeeId = :attendeeId AND checkin.listId = :listId', { attendeeId, listId })
      .andWhere('checkin.successful = :successful AND checkin.annulledAt IS NULL', { successful: true })
      .orderBy('checkin.id', 'ASC')
      .getMany();
  }

  /** Clears the attendee's `checked_in` flag (its only entry on the default list was annulled). */
  async unflagCheckedIn(attendeeId: number): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Attendee)
      .set({ checkedIn: false, checkedInAt: null, checkinSource: null, checkinUserId: null })
      .where('id = :attendeeId AND checked_in = :checkedIn', { attendeeId, checkedIn: true })
      .execute();
  }

  /**
   * Per gate of the list (the scanning device's name; null without a device): successful entry and
   * exit scans that were not annulled (one grouped read of the list's scans, IDX_checkins_list), and
   * the attendees inside whose newest counting entry was through it (the positions inside, each with
   * its newest entry through IDX_checkins_attendee).
   */
  async gateCounts(listId: number): Promise<GateCounts[]> {
    const manager = this.tx.manager;
    const scans = await manager
      .createQueryBuilder(Checkin, 'checkin')
      .leftJoin(Device, 'device', 'device.id = checkin.deviceId')
      .select('device.name', 'gate')
      .addSelect('checkin.type', 'type')
      .addSelect('COUNT(*)', 'total')
      .where('checkin.listId = :listId AND checkin.successful = :successful', { listId, successful: true })
      .andWhere('checkin.annulledAt IS NULL')
      .groupBy('device.name')
      .addGroupBy('checkin.type')
      .getRawMany<{ gate: string | null; type: string; total: number | string }>();
    const inside = await manager
      .createQueryBuilder(CheckinPosition, 'position')
      .innerJoin(
        Checkin,
        'entry',
        'entry.id = (SELECT MAX(latest.id) FROM checkins latest WHERE latest.attendee_id = position.attendee_id AND latest.list_id = position.list_id ' +
          "AND latest.successful = :successful AND latest.type = 'entry' AND latest.annulled_at IS NULL)",
      )
      .leftJoin(Device, 'device', 'device.id = entry.deviceId')
      .select('device.name', 'gate')
      .addSelect('COUNT(*)', 'total')
      .where('position.listId = :listId AND position.inside = :inside', { listId, inside: true, successful: true })
      .groupBy('device.name')
      .getRawMany<{ gate: string | null; total: number | string }>();
    const gates = new Map<string | null, GateCounts>();
    const slot = (gate: string | null): GateCounts => {
      let counts = gates.get(gate);
      if (!counts) gates.set(gate, (counts = { gate, entries: 0, exits: 0, inside: 0 }));
      return counts;
    };
    for (const row of scans) {
      if (row.type === 'entry') slot(row.gate).entries += Number(row.total);
      else slot(row.gate).exits += Number(row.total);
    }
    for (const row of inside) slot(row.gate).inside += Number(row.total);
    return [...gates.values()];
  }

  // ---------------------------------------------------------------- search and sync

  /**
   * At most `limit` attendees holding a ticket the list admits, whatever their order's status (the
   * door sees a cancelled or unpaid one by its `order_status`), matching the text: name or email
   * containing it, secret starting with it, or the order of that number; only the order when
   * `orderOnly` (a number too short to search names with).
   */
  search(list: CheckinList, text: string, limit: number, options: { orderOnly?: boolean } = {}): Promise<Attendee[]> {
    const manager = this.tx.manager;
    const builder = manager
      .createQueryBuilder(Attendee, 'attendee')
      .where('attendee.eventId = :eventId', { eventId: list.eventId })
      .orderBy('attendee.holderName', 'ASC')
      .addOrderBy('attendee.id', 'ASC')
      .limit(limit);
    const ticketIds = parseIdList(list.ticketIds);
    if (ticketIds.length > 0) builder.andWhere('attendee.ticketId IN (:...ticketIds)', { ticketIds });
    if (options.orderOnly) return builder.andWhere('attendee.orderId = :orderId', { orderId: Number(text) }).getMany();
    const contains = `%${escapeLike(text.toLowerCase())}%`;
    const prefix = `${escapeLike(text.toUpperCase())}%`;
    builder.andWhere(
      new Brackets((match) => {
        match
          .where("LOWER(attendee.holderName) LIKE :contains ESCAPE '!'", { contains })
          .orWhere("LOWER(attendee.holderEmail) LIKE :contains ESCAPE '!'", { contains })
          .orWhere("attendee.checkinSecret LIKE :prefix ESCAPE '!'", { prefix });
        if (/^\d{1,9}$/.test(text)) match.orWhere('attendee.orderId = :orderId', { orderId: Number(text) });
      }),
    );
    return builder.getMany();
  }

  /**
   * Attendees of the event changed after (time, id), in that order.
   */
  changedAttendees(eventId: number, after: { time: Date; id: number }, limit: number): Promise<Attendee[]> {
    const manager = this.tx.manager;
    const updated = SqlDialect.of(manager).comparableDateTime('attendee.updated_at');
    return manager
      .createQueryBuilder(Attendee, 'attendee')
      .where('attendee.eventId = :eventId', { eventId })
      .andWhere(
        new Brackets((later) => {
          later
            .where(`${updated} > :afterTime`, { afterTime: after.time })
            .orWhere(`(${updated} = :afterTime AND attendee.id > :afterId)`, { afterId: after.id });
        }),
      )
      .orderBy(updated, 'ASC')
      .addOrderBy('attendee.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  revokedSecretsSince(eventId: number, since: Date): Promise<RevokedSecret[]> {
    const manager = this.tx.manager;
    return manager
      .createQueryBuilder(RevokedSecret, 'revoked')
      .where('revoked.eventId = :eventId AND revoked.revokedAt >= :since', { eventId, since })
      .orderBy('revoked.id', 'ASC')
      .getMany();
  }

  // ---------------------------------------------------------------- devices

  async insertDevice(values: Partial<Device>): Promise<Device> {
    const manager = this.tx.manager;
    const saved = await manager.save(Device, manager.create(Device, values));
    return manager.findOneOrFail(Device, { where: { id: saved.id } });
  }

  findDevice(id: number): Promise<Device | null> {
    const manager = this.tx.manager;
    return manager.findOne(Device, { where: { id } });
  }

  deviceByApiToken(hash: string): Promise<Device | null> {
    const manager = this.tx.manager;
    return manager.findOne(Device, { where: { apiTokenHash: hash } });
  }

  /** Uses an initialization token once: the conditional UPDATE lets one of two racing callers win. */
  async initializeDevice(
    initializationHash: string,
    apiHash: string,
    facts: { hardware: string | null; software: string | null },
    now: Date,
  ): Promise<Device | null> {
    const manager = this.tx.manager;
    const device = await manager.findOne(Device, { where: { initializationTokenHash: initializationHash } });
    if (!device || device.revokedAt || !device.initializationExpiresAt || device.initializationExpiresAt <= now) return null;
    const result = await manager
      .createQueryBuilder()
      .update(Device)
      .set({ initializationTokenHash: null, apiTokenHash: apiHash, initializedAt: now, hardware: facts.hardware, software: facts.software })
      .where('id = :id AND initialization_token_hash = :initializationHash', { id: device.id, initializationHash })
      .execute();
    if (!result.affected) return null;
    return manager.findOneOrFail(Device, { where: { id: device.id } });
  }

  async revokeDevice(id: number, now: Date): Promise<void> {
    const manager = this.tx.manager;
    await manager
      .createQueryBuilder()
      .update(Device)
      .set({ revokedAt: now, apiTokenHash: null, initializationTokenHash: null })
      .where('id = :id AND revoked_at IS NULL', { id })
      .execute();
  }

  listDevices(createdBy?: number): Promise<Device[]> {
    const manager = this.tx.manager;
    return manager.find(Device, { where: createdBy === undefined ? {} : { createdBy }, order: { id: 'ASC' } });
  }
}
