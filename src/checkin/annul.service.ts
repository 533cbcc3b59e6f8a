import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { CLOCK, Clock } from '../common/clock';
import { invalidParams } from '../common/errors/api-error';
import { appConfig } from '../config/app.config';
import { annulRefused, checkinNotFound } from './checkin-errors';
import type { Checkin } from './checkin.entity';
import { toCheckinResponse, toDoorAttendee } from './checkin.mapper';
import { CheckinRepository } from './checkin.repository';
import { nonceScope } from './door-route';
import { AnnulResponse } from './dto/checkin.response';
import { AnnulDto } from './dto/door.dto';
import { annulRefusal, annulScan, AnnulCaller, PositionState, ScanType } from './redeem-rules';
import { TransactionHost } from '../common/database/transaction-host';
import { mayScan } from '../access/door-access';
import type { DoorCaller } from './door-route';

/**
 * POST /checkin/annul: undoes an accidental scan. The scan stays in the history, marked annulled
 * (when, by whom); the attendee's position on the list goes back (one entry or exit fewer, inside
 * as the newest scan that still counts left it), so the counts, the status per gate and the list's
 * sync data follow, and the ticket can enter again. On a default list, annulling the attendee's only
 * entry also clears its `checked_in` flag. Decided under the attendee's row lock, like every scan
 * of the ticket, so an annulment and a scan of the same ticket at another gate do not interleave.
 */
@Injectable()
export class AnnulService {
  constructor(
    private readonly tx: TransactionHost,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>,
    private readonly repository: CheckinRepository,
  ) {}

  async annul(input: AnnulDto, caller: DoorCaller): Promise<AnnulResponse> {
    if ((input.nonce === undefined) === (input.checkin_id === undefined)) {
      const reason = 'send exactly one of nonce and checkin_id';
      throw invalidParams({ nonce: reason, checkin_id: reason });
    }
    const found =
      input.checkin_id !== undefined
        ? await this.repository.findCheckin(input.checkin_id)
        : await this.repository.findByNonce(nonceScope(caller), input.nonce as string);
    if (!found) throw checkinNotFound();
    const who = await this.annulCaller(found, caller);
    const minutes = this.config.tickets.checkinAnnulMinutes;
    const now = this.clock.now();
    this.assertAnnullable(found, who, now, minutes);
    const attendeeId = found.attendeeId as number;

    return this.tx.run(async () => {
      await this.repository.lockAttendee(attendeeId, now);
      // Read again under the lock: another annulment of it may have committed meanwhile.
      const checkin = (await this.repository.findCheckin(found.id)) as Checkin;
      this.assertAnnullable(checkin, who, now, minutes);
      const by = { deviceId: caller.kind === 'device' ? caller.device.id : null, userId: caller.kind === 'user' ? caller.user.id : null };
      if (!(await this.repository.annulCheckin(checkin.id, by, now))) throw annulRefused('already_annulled', minutes);
      Object.assign(checkin, { annulledAt: now, annulledDeviceId: by.deviceId, annulledUserId: by.userId });

      const facts = await this.repository.scanFacts({ id: attendeeId }, [checkin.eventId], [checkin.listId], null);
      if (!facts) throw checkinNotFound();
      const [position] = facts.positions;
      const state = await this.restorePosition(checkin, position);
      const list = await this.repository.findList(checkin.listId);
      if (list && list.defaultEventId !== null && checkin.type === 'entry' && state.entries === 0) {
        await this.repository.unflagCheckedIn(attendeeId);
      }
      const gate = await this.repository.deviceName(checkin.deviceId);
      return {
        status: 'ok' as const,
        checkin: toCheckinResponse(checkin, gate),
        attendee: toDoorAttendee(facts.attendee, facts.ticketTitle, state),
      };
    });
  }

  /** Who asks, for the rules: the device (if one), and whether it may use the scan's list at all. */
  private async annulCaller(checkin: Checkin, caller: DoorCaller): Promise<AnnulCaller> {
    const list = await this.repository.findList(checkin.listId);
    const event = list ? await this.repository.event(list.eventId) : null;
    return {
      deviceId: caller.kind === 'device' ? caller.device.id : null,
      mayUseList: list !== null && event !== null && mayScan(caller, list, event),
    };
  }

  private assertAnnullable(checkin: Checkin, caller: AnnulCaller, now: Date, minutes: number): void {
    const refusal = annulRefusal(
      {
        successful: checkin.successful,
        // Redeem answers 201 and stores its answer; the check_in flag's records are undone with the flag.
        redeemed: checkin.answerStatus === 201 && checkin.attendeeId !== null,
        annulledAt: checkin.annulledAt,
        deviceId: checkin.deviceId,
        createdAt: checkin.createdAt,
      },
      caller,
      now,
      minutes,
    );
    if (refusal) throw annulRefused(refusal, minutes);
  }

  /**
   * The position without the annulled scan: one entry (or exit) fewer, inside as the newest scan
   * that still counts left it, and the entry/exit times of the scans that still count.
   */
  private async restorePosition(
    checkin: Checkin,
    position: { id: number; entries: number; exits: number; inside: boolean } | undefined,
  ): Promise<PositionState> {
    const attendeeId = checkin.attendeeId as number;
    const remaining = await this.repository.countingScans(checkin.listId, attendeeId);
    const latest = (remaining.at(-1)?.type ?? null) as ScanType | null;
    const state = annulScan(position ?? { entries: 0, exits: 0, inside: false }, checkin.type as ScanType, latest);
    if (!position) return state;
    const entries = remaining.filter((scan) => scan.type === 'entry');
    const exits = remaining.filter((scan) => scan.type === 'exit');
    await this.repository.savePosition({
      id: position.id,
      listId: checkin.listId,
      attendeeId,
      ...state,
      firstEntryAt: state.entries > 0 ? (entries[0]?.scannedAt ?? null) : null,
      lastEntryAt: entries.at(-1)?.scannedAt ?? null,
      lastExitAt: exits.at(-1)?.scannedAt ?? null,
    });
    return state;
  }
}
