import { Inject, Injectable } from '@nestjs/common';
import { Attendee } from '../attendees/attendee.entity';
import type { RequestContext } from '../auth/request-context';
import { CLOCK, Clock } from '../common/clock';
import { DomainEvents } from '../common/domain-events/domain-events';
import { isForeignKeyViolation, isUniqueViolation } from '../common/database/transactions';
import { ApiErrorBody, invalidParam } from '../common/errors/api-error';
import { CheckinList } from './checkin-list.entity';
import type { CheckinPosition } from './checkin-position.entity';
import { Checkin } from './checkin.entity';
import type { Device } from './device.entity';
import { readInstant } from './checkin-lists.service';
import { nonceReused, RedeemError, ReplayedAnswer } from './checkin-errors';
import { isoTime, toCheckinResponse, toDoorAttendee, toRefusedAttendee } from './checkin.mapper';
import { CheckinRepository, DoorEvent } from './checkin.repository';
import { DoorListCache } from './door-lists.cache';
import { nonceScope } from './door-route';
import { parseIdList } from './id-list';
import { RedeemResponse } from './dto/checkin.response';
import { RedeemDto } from './dto/door.dto';
import {
  applyScan,
  decideScan,
  ListRules,
  PositionState,
  RedeemReason,
  refusalNamesAttendee,
  scanRequestDigest,
  scanWindow,
  ScanType,
} from './redeem-rules';
import { TransactionHost } from '../common/database/transaction-host';
import { assertMayScan } from '../access/door-access';
import type { DoorCaller } from './door-route';

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
 *
 * What one admitted scan sends (test/checkin-statements.e2e-spec.ts): the lists and their events
 * come from DoorListCache; in one transaction the lock (an UPDATE of the attendee's `updated_at`),
 * one SELECT of the attendee with its ticket's title, its positions and a check-in already recorded
 * under the nonce, then the check-in with its answer, the position and the outbox message.
 */
@Injectable()
export class RedeemService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly repository: CheckinRepository,
    private readonly domainEvents: DomainEvents,
    private readonly doorLists: DoorListCache,
  ) {}

  async redeem(input: RedeemDto, caller: DoorCaller, context: RequestContext): Promise<RedeemResponse> {
    const now = this.clock.now();
    const sentAt = readInstant(input.datetime, 'datetime', context) ?? null;
    const at = sentAt ?? now;
    const type: ScanType = input.type ?? 'entry';
    const listIds = [...new Set(input.list_ids)];
    const door = await this.doorLists.get(listIds);
    if (door.length !== listIds.length) throw invalidParam('list_ids', 'list_ids must be existing check-in lists');
    for (const { list, event } of door) assertMayScan(caller, list, event);
    const lists = door.map((entry) => entry.list);
    const events = new Map(door.map((entry) => [entry.event.id, entry.event]));
    const eventIds = [...events.keys()];

    const scope = nonceScope(caller);
    const nonce = input.nonce ?? null;
    const nonceKey = nonce ? { scope, nonce } : null;
    // The nonce is bound to what this request asks: a retry must ask the same to get the same answer.
    const requestHash = nonce ? scanRequestDigest({ secret: input.secret, listIds, type, at: sentAt, force: input.force === true }) : null;
    const replayed = (prior: Checkin): Answer => {
      if (prior.requestHash !== null && prior.requestHash !== requestHash) throw nonceReused();
      return storedAnswer(prior);
    };

    let answer: Answer;
    try {
      answer = await this.tx.run(async () => {
        await this.repository.lockAttendeeBySecret(input.secret, eventIds, now);
        let facts = await this.repository.scanFacts({ secret: input.secret }, eventIds, listIds, nonceKey);
        let revoked = false;
        if (!facts) {
          // Nobody of these events holds the secret now: a retry, a revoked secret, or an invalid code.
          if (nonce) {
            const prior = await this.repository.findByNonce(scope, nonce);
            if (prior) return replayed(prior);
          }
          const revokedSecret = await this.repository.revokedSecret(input.secret);
          if (revokedSecret && events.has(revokedSecret.eventId)) {
            await this.repository.lockAttendee(revokedSecret.attendeeId, now);
            facts = await this.repository.scanFacts({ id: revokedSecret.attendeeId }, eventIds, listIds, nonceKey);
            revoked = facts !== null;
          }
        }
        if (facts?.priorCheckinId) {
          const prior = await this.repository.findCheckin(facts.priorCheckinId);
          if (prior) return replayed(prior);
        }
        const attendee = facts?.attendee ?? null;
        const candidates = attendee ? lists.filter((list) => list.eventId === attendee.eventId) : lists;
        const positions = new Map((facts?.positions ?? []).map((position) => [position.listId, position]));
        const outcome = this.decide(attendee, revoked, candidates, events, positions, type, at, input.force === true);
        return this.record(outcome, positions.get(outcome.list.id), facts?.ticketTitle ?? '', {
          caller,
          type,
          at,
          now,
          scope,
          nonce,
          requestHash,
        });
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) {
        // A list deleted by another instance within the list cache's lifetime.
        for (const id of listIds) this.doorLists.forget(id);
        throw invalidParam('list_ids', 'list_ids must be existing check-in lists');
      }
      // Two requests with one nonce for a code nobody holds take no lock: the unique key decides.
      if (!nonce || !isUniqueViolation(error)) throw error;
      const prior = await this.repository.findByNonce(scope, nonce);
      if (!prior) throw error;
      return toRedeemResponse(replayed(prior));
    }
    return toRedeemResponse(answer);
  }

  /**
   * Admits attendees just sold at the door (POST /checkin/sell with `admit`), in the sale's
   * transaction: each is decided and recorded as an entry scan of its secret on the list by the
   * caller, without a nonce (the sale's nonce covers the whole answer). Answers, per attendee, whether
   * it entered; a refusal (the list's time window) is recorded as a refused scan.
   */
  async admitSold(
    door: { list: CheckinList; event: DoorEvent },
    attendees: Attendee[],
    ticketTitle: string,
    caller: DoorCaller,
    now: Date,
  ): Promise<boolean[]> {
    const scope = nonceScope(caller);
    const events = new Map([[door.event.id, door.event]]);
    const admitted: boolean[] = [];
    for (const attendee of attendees) {
      const outcome = this.decide(attendee, false, [door.list], events, new Map(), 'entry', now, false);
      const answer = await this.record(outcome, undefined, ticketTitle, {
        caller,
        type: 'entry',
        at: now,
        now,
        scope,
        nonce: null,
        requestHash: null,
      });
      admitted.push(answer.status === 201);
    }
    return admitted;
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

  /**
   * Writes the scan with its answer (one INSERT), and when admitted or forced its effect on the
   * position, the default list's check-in flag and the notification.
   */
  private async record(
    outcome: ScanOutcome,
    position: CheckinPosition | undefined,
    ticketTitle: string,
    scan: { caller: DoorCaller; type: ScanType; at: Date; now: Date; scope: string; nonce: string | null; requestHash: string | null },
  ): Promise<Answer> {
    const { list, attendee, reason, forced } = outcome;
    const successful = reason === null || forced;
    const device = scan.caller.kind === 'device' ? scan.caller.device : null;
    const values: Omit<Checkin, 'id' | 'answerStatus' | 'answer'> = {
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
      requestHash: scan.requestHash,
      annulledAt: null,
      annulledDeviceId: null,
      annulledUserId: null,
    };
    if (!(successful && attendee)) {
      const answer = await this.refuse(list, attendee, ticketTitle, reason ?? 'invalid');
      await this.repository.insertCheckin({ ...values, answerStatus: answer.status, answer: JSON.stringify(answer.body) });
      return answer;
    }
    // The answer names the check-in's id, known after the INSERT: it is stored without it (0) and
    // filled in from the row when replayed (storedAnswer).
    const state = applyScan(toState(position), scan.type);
    const gate = device?.name ?? null;
    const body: RedeemResponse = {
      status: 'ok',
      attendee: toDoorAttendee(attendee, ticketTitle, state),
      checkin: toCheckinResponse(Object.assign(new Checkin(), values, { id: 0, answerStatus: 201, answer: '' }), gate),
    };
    const checkin = await this.repository.insertCheckin({ ...values, answerStatus: 201, answer: JSON.stringify(body) });
    body.checkin.id = checkin.id;
    await this.admit(list, attendee, position, state, checkin, { ...scan, device, forced });
    return { status: 201, body };
  }

  /**
   * The refusal's answer: who it is about (name, ticket) where an attendee was found, and for
   * `already_redeemed` when and where the ticket entered.
   */
  private async refuse(list: CheckinList, attendee: Attendee | null, ticketTitle: string, reason: RedeemReason): Promise<Answer> {
    const extra: Record<string, unknown> = {};
    if (attendee && refusalNamesAttendee(reason)) extra.attendee = toRefusedAttendee(attendee, ticketTitle);
    if (reason === 'already_redeemed' && attendee) {
      const last = await this.repository.lastEntry(list.id, attendee.id);
      if (last) {
        extra.last = { datetime: isoTime(last.checkin.scannedAt), list_id: last.checkin.listId, gate: last.gate, type: last.checkin.type };
      }
    }
    const error = new RedeemError(reason, extra);
    return { status: error.getStatus(), body: error.toBody() };
  }

  /** Moves the attendee's position on the list, the default list's check-in flag, and notifies. */
  private async admit(
    list: CheckinList,
    attendee: Attendee,
    position: CheckinPosition | undefined,
    state: PositionState,
    checkin: Checkin,
    scan: { caller: DoorCaller; type: ScanType; at: Date; device: Device | null; forced: boolean },
  ): Promise<void> {
    const entry = scan.type === 'entry';
    await this.repository.savePosition({
      id: position?.id,
      listId: list.id,
      attendeeId: attendee.id,
      entries: state.entries,
      exits: state.exits,
      inside: state.inside,
      ...(entry ? { lastEntryAt: scan.at, ...(position?.firstEntryAt ? {} : { firstEntryAt: scan.at }) } : { lastExitAt: scan.at }),
    });
    const userId = scan.caller.kind === 'user' ? scan.caller.user.id : null;
    if (entry && list.defaultEventId !== null) await this.repository.flagCheckedIn(attendee.id, scan.at, userId);
    await this.domainEvents.publish({
      kind: 'CheckInChanged',
      attendee,
      checkedIn: entry,
      scan: {
        listId: list.id,
        listName: list.name,
        checkinId: checkin.id,
        type: scan.type,
        forced: scan.forced,
        deviceId: scan.device?.id ?? null,
        gate: scan.device?.name ?? null,
        at: scan.at,
      },
    });
  }
}

/** The answer stored with a check-in, its id filled in (an admitted scan's answer is stored before its id is known). */
function storedAnswer(prior: Checkin): Answer {
  const body = JSON.parse(prior.answer) as Answer['body'];
  if ('checkin' in body && body.checkin) body.checkin.id = prior.id;
  return { status: prior.answerStatus, body };
}

/** The answer as the route gives it: the body of an admission, or a refusal thrown as its stored envelope. */
function toRedeemResponse({ status, body }: Answer): RedeemResponse {
  if (status !== 201) throw new ReplayedAnswer(status, body as ApiErrorBody);
  return body as RedeemResponse;
}
