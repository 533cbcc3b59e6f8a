import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Attendee } from '../attendees/attendee.entity';
import type { RequestContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import { isUniqueViolation, runInTransaction } from '../common/database/transactions';
import { ApiErrorBody, invalidParam } from '../common/errors/api-error';
import { OutboxService } from '../outbox/outbox.service';
import { CheckinList } from './checkin-list.entity';
import type { CheckinPosition } from './checkin-position.entity';
import type { Checkin } from './checkin.entity';
import type { Device } from './device.entity';
import { readInstant } from './checkin-lists.service';
import { RedeemError, ReplayedAnswer } from './checkin-errors';
import { isoTime, toCheckinResponse, toDoorAttendee } from './checkin.mapper';
import { CheckinRepository, DoorEvent } from './checkin.repository';
import { assertMayScan, DoorCaller } from './door-access';
import { parseIdList } from './id-list';
import { RedeemResponse } from './dto/checkin.response';
import { RedeemDto } from './dto/door.dto';
import { applyScan, decideScan, ListRules, PositionState, RedeemReason, scanWindow, ScanType } from './redeem-rules';

/** What one scan decided, before it is written. */
interface ScanOutcome {
  list: CheckinList;
  attendee: Attendee | null;
  reason: RedeemReason | null;
  /** Recorded as successful on the device's word (force), with the reason it would have been refused. */
  forced: boolean;
}

interface Answer {
  status: number;
  body: RedeemResponse | ApiErrorBody;
}

export function listRules(list: CheckinList, event: DoorEvent): ListRules {
  return {
    id: list.id,
    ticketIds: parseIdList(list.ticketIds),
    includePending: list.includePending,
    allowMultipleEntries: list.allowMultipleEntries,
    allowEntryAfterExit: list.allowEntryAfterExit,
    window: scanWindow(list, event),
  };
}

function toState(position: CheckinPosition | undefined): PositionState | undefined {
  return position ? { entries: position.entries, exits: position.exits, inside: position.inside } : undefined;
}

/**
 * POST /checkin/redeem. Every scan of one ticket takes that attendee's row lock first, so scans at
 * any number of gates are decided one after the other on fresh state; every scan, admitted or not,
 * is written to the history with the answer it got, which a retry with the same nonce receives again.
 */
@Injectable()
export class RedeemService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
    private readonly outbox: OutboxService,
  ) {}

  async redeem(input: RedeemDto, caller: DoorCaller, context: RequestContext): Promise<RedeemResponse> {
    const manager = this.dataSource.manager;
    const now = this.clock.now();
    const at = readInstant(input.datetime, 'datetime', context) ?? now;
    const type: ScanType = input.type ?? 'entry';
    const listIds = [...new Set(input.list_ids)];
    const lists = await this.repository.findLists(manager, listIds);
    if (lists.length !== listIds.length) throw invalidParam('list_ids', 'list_ids must be existing check-in lists');
    const events = new Map(
      (
        await this.repository.events(
          manager,
          lists.map((list) => list.eventId),
        )
      ).map((event) => [event.id, event]),
    );
    for (const list of lists) assertMayScan(caller, list, events.get(list.eventId) as DoorEvent);

    const scope = caller.kind === 'device' ? `device:${caller.device.id}` : `user:${caller.user.id}`;
    const nonce = input.nonce ?? null;
    if (nonce) {
      const prior = await this.repository.findByNonce(manager, scope, nonce);
      if (prior) return replay(prior);
    }

    const found = await this.repository.attendeeBySecret(manager, input.secret);
    const revoked = found ? null : await this.repository.revokedSecret(manager, input.secret);
    const holderId = found?.id ?? revoked?.attendeeId ?? null;
    const holderEvent = found?.eventId ?? revoked?.eventId ?? null;
    const candidates = lists.filter((list) => list.eventId === holderEvent);

    let answer: Answer;
    try {
      answer = await runInTransaction(this.dataSource, async (transaction) => {
        if (holderId !== null && candidates.length > 0) await this.repository.lockAttendee(transaction, holderId, now);
        if (nonce) {
          const prior = await this.repository.findByNonce(transaction, scope, nonce);
          if (prior) return { status: prior.answerStatus, body: JSON.parse(prior.answer) as Answer['body'] };
        }
        const attendee = holderId !== null && candidates.length > 0 ? await this.repository.attendee(transaction, holderId) : null;
        const positions = attendee
          ? new Map(
              (
                await this.repository.positions(
                  transaction,
                  attendee.id,
                  candidates.map((list) => list.id),
                )
              ).map((position) => [position.listId, position]),
            )
          : new Map<number, CheckinPosition>();
        const outcome = this.decide(
          attendee,
          revoked !== null,
          candidates.length ? candidates : lists,
          events,
          positions,
          type,
          at,
          input.force === true,
        );
        return this.record(transaction, outcome, positions.get(outcome.list.id), { caller, type, at, now, scope, nonce });
      });
    } catch (error) {
      // Two requests with one nonce for a code nobody holds take no lock: the unique key decides.
      if (!nonce || !isUniqueViolation(error)) throw error;
      const prior = await this.repository.findByNonce(manager, scope, nonce);
      if (!prior) throw error;
      return replay(prior);
    }
    if (answer.status !== 201) throw new ReplayedAnswer(answer.status, answer.body as ApiErrorBody);
    return answer.body as RedeemResponse;
  }

  private decide(
    attendee: Attendee | null,
    secretRevoked: boolean,
    lists: CheckinList[],
    events: Map<number, DoorEvent>,
    positions: Map<number, CheckinPosition>,
    type: ScanType,
    at: Date,
    force: boolean,
  ): ScanOutcome {
    if (!attendee) return { list: lists[0], attendee: null, reason: 'invalid', forced: false };
    const rules = lists.map((list) => listRules(list, events.get(list.eventId) as DoorEvent));
    const states = new Map([...positions].map(([listId, position]) => [listId, toState(position) as PositionState]));
    const decision = secretRevoked
      ? { list: rules[0], reason: 'revoked' as const }
      : decideScan(
          { ticketId: attendee.ticketId, orderStatus: attendee.orderStatus, blocked: attendee.checkinBlocked, revoked: false },
          rules,
          states,
          type,
          at,
        );
    const list = lists.find((candidate) => candidate.id === decision.list.id) as CheckinList;
    return { list, attendee, reason: decision.reason, forced: force && decision.reason !== null };
  }

  /** Writes the scan, its effect on the position (when admitted or forced), the notification and the answer. */
  private async record(
    manager: EntityManager,
    outcome: ScanOutcome,
    position: CheckinPosition | undefined,
    scan: { caller: DoorCaller; type: ScanType; at: Date; now: Date; scope: string; nonce: string | null },
  ): Promise<Answer> {
    const { list, attendee, reason, forced } = outcome;
    const successful = reason === null || forced;
    const device = scan.caller.kind === 'device' ? scan.caller.device : null;
    const checkin = await this.repository.insertCheckin(manager, {
      listId: list.id,
      eventId: list.eventId,
      attendeeId: attendee?.id ?? null,
      type: scan.type,
      scannedAt: scan.at,
      createdAt: scan.now,
      successful,
      forced,
      reason,
      deviceId: device?.id ?? null,
      userId: scan.caller.kind === 'user' ? scan.caller.user.id : null,
      nonceScope: scan.nonce ? scan.scope : null,
      nonce: scan.nonce,
      answerStatus: 0,
      answer: '',
    });
    const answer =
      successful && attendee
        ? await this.admit(manager, list, attendee, position, checkin, { ...scan, device, forced })
        : await this.refuse(manager, list, attendee, reason ?? 'invalid');
    await this.repository.storeAnswer(manager, checkin.id, answer.status, JSON.stringify(answer.body));
    return answer;
  }

  /** The refusal's answer; `already_redeemed` says when and where the ticket entered. */
  private async refuse(manager: EntityManager, list: CheckinList, attendee: Attendee | null, reason: RedeemReason): Promise<Answer> {
    const extra: Record<string, unknown> = {};
    if (reason === 'already_redeemed' && attendee) {
      const last = await this.repository.lastEntry(manager, list.id, attendee.id);
      if (last) {
        extra.last = { datetime: isoTime(last.checkin.scannedAt), list_id: last.checkin.listId, gate: last.gate, type: last.checkin.type };
      }
    }
    const error = new RedeemError(reason, extra);
    return { status: error.getStatus(), body: error.toBody() };
  }

  /** Moves the attendee's position on the list, the default list's check-in flag, and notifies. */
  private async admit(
    manager: EntityManager,
    list: CheckinList,
    attendee: Attendee,
    position: CheckinPosition | undefined,
    checkin: Checkin,
    scan: { caller: DoorCaller; type: ScanType; at: Date; device: Device | null; forced: boolean },
  ): Promise<Answer> {
    const state = applyScan(toState(position), scan.type);
    const entry = scan.type === 'entry';
    await this.repository.savePosition(manager, {
      id: position?.id,
      listId: list.id,
      attendeeId: attendee.id,
      entries: state.entries,
      exits: state.exits,
      inside: state.inside,
      ...(entry ? { lastEntryAt: scan.at, ...(position?.firstEntryAt ? {} : { firstEntryAt: scan.at }) } : { lastExitAt: scan.at }),
    });
    const userId = scan.caller.kind === 'user' ? scan.caller.user.id : null;
    if (entry && list.defaultEventId !== null) await this.repository.flagCheckedIn(manager, attendee.id, scan.at, userId);
    const gate = scan.device?.name ?? null;
    await this.outbox.checkInChanged(manager, attendee, entry, {
      list_id: list.id,
      list_name: list.name,
      checkin_id: checkin.id,
      type: scan.type,
      forced: scan.forced,
      device_id: scan.device?.id ?? null,
      gate,
      datetime: isoTime(scan.at),
    });
    const title = (await this.repository.ticketTitles(manager, [attendee.ticketId])).get(attendee.ticketId) ?? '';
    const body: RedeemResponse = {
      status: 'ok',
      attendee: toDoorAttendee(attendee, title, state),
      checkin: toCheckinResponse(checkin, gate),
    };
    return { status: 201, body };
  }
}

function replay(prior: Checkin): RedeemResponse {
  const body = JSON.parse(prior.answer) as RedeemResponse | ApiErrorBody;
  if (prior.answerStatus !== 201) throw new ReplayedAnswer(prior.answerStatus, body as ApiErrorBody);
  return body as RedeemResponse;
}
