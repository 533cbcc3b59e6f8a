import { Injectable } from '@nestjs/common';
import type { AdmissionGate, GateRequest, GatedLine } from '../cart/admission-gate';
import { mayBypassQueue } from '../access/queue-access';
import { AdmissionTokens } from './admission-tokens';
import { gatesAt, LiveQueue, LiveQueues } from './live-queues';
import { QueueAdmission } from './queue.entity';
import { admissionInvalid, admissionRequired, admissionUnits } from './queue-errors';
import { QueuesRepository } from './queues.repository';

const PROBLEM_TEXT = { malformed: 'not a valid admission token', expired: 'expired', 'other-queue': 'issued for another queue' } as const;

/**
 * The waiting rooms' gate, in one place: the cart's writes and the checkout call it (through the
 * ADMISSION_GATE port) for every line they take capacity for. While a queue gates its tickets,
 * raising a line or checking out needs the queue's admission token: signed for that queue, not
 * expired, not revoked (the deny-list), its entry's turn not over, and units left under its limit.
 * Managers of the queue's event skip it (box office, tests); walk-in sales at the door never come here.
 */
@Injectable()
export class QueueAdmissionGate implements AdmissionGate {
  constructor(
    private readonly live: LiveQueues,
    private readonly tokens: AdmissionTokens,
    private readonly queues: QueuesRepository,
  ) {}

  async checkCartWrite(request: GateRequest): Promise<void> {
    for (const { queue, units, admission } of await this.admissionsFor(request)) {
      if (admission.unitsUsed + units > admission.unitLimit) throw admissionUnits(queue.id, admission.unitLimit - admission.unitsUsed);
    }
  }

  async takeAtCheckout(request: GateRequest): Promise<void> {
    for (const { queue, units, admission } of await this.admissionsFor(request)) {
      if (units === 0) continue;
      if (!(await this.queues.takeUnits(admission.jti, units, request.now))) {
        const now = await this.queues.findAdmission(admission.jti);
        if (now?.revokedAt) throw admissionInvalid(queue.id, 'revoked');
        if (!now || now.expiresAt <= request.now) throw admissionInvalid(queue.id, 'expired');
        throw admissionUnits(queue.id, now.unitLimit - now.unitsUsed);
      }
      // An admission is one order: once it is placed the turn is over, and its place goes to the next in line.
      await this.queues.finishEntry(admission.entryId, 'completed', request.now);
    }
  }

  /** The queues gating the request's lines, each with the units of its tickets and the admission the token proves. */
  private async admissionsFor(
    request: GateRequest,
  ): Promise<Array<{ queue: LiveQueue['queue']; units: number; admission: QueueAdmission }>> {
    const guarding = await this.live.guarding(request.lines);
    const found: Array<{ queue: LiveQueue['queue']; units: number; admission: QueueAdmission }> = [];
    for (const live of guarding) {
      const { queue } = live;
      if (!gatesAt(queue, request.now)) continue;
      if (mayBypassQueue(request.user, { id: queue.eventId, authorId: live.authorId })) continue;
      const lines = request.lines.filter((line) => line.eventId === queue.eventId && (live.ticketIds?.has(line.ticketId) ?? true));
      if (request.raised && !lines.some((line) => request.raised?.has(line.ticketId) ?? false)) continue;
      found.push({ queue, units: unitsOf(lines), admission: await this.admission(queue.id, request) });
    }
    return found;
  }

  private async admission(queueId: number, request: GateRequest): Promise<QueueAdmission> {
    if (!request.token) throw admissionRequired(queueId);
    const verified = await this.tokens.verify(request.token, queueId, request.now);
    if ('problem' in verified) throw admissionInvalid(queueId, PROBLEM_TEXT[verified.problem]);
    const admission = await this.queues.findAdmission(verified.jti);
    if (!admission || admission.queueId !== queueId) throw admissionInvalid(queueId, PROBLEM_TEXT.malformed);
    if (admission.revokedAt) throw admissionInvalid(queueId, 'revoked');
    if (admission.expiresAt <= request.now) throw admissionInvalid(queueId, 'expired');
    return admission;
  }
}

function unitsOf(lines: GatedLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}
