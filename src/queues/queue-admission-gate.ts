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
    for (const { queue, units, token } of await this.gating(request)) {
      const admission = await this.admission(queue.id, token.jti, request.now);
      if (admission.unitsUsed + units > admission.unitLimit) throw admissionUnits(queue.id, admission.unitLimit - admission.unitsUsed);
    }
  }

  /**
   * Spends the admission in the checkout's transaction: one conditional UPDATE that holds every
   * check (its queue, not revoked, not expired, units left), then the turn's end, found by the
   * token's entry. Only when the UPDATE changes nothing is the admission read, to say why.
   */
  async takeAtCheckout(request: GateRequest): Promise<void> {
    for (const { queue, units, token } of await this.gating(request)) {
      if (units === 0) continue;
      if (!(await this.queues.takeUnits(token.jti, queue.id, units, request.now))) {
        const admission = await this.admission(queue.id, token.jti, request.now);
        throw admissionUnits(queue.id, admission.unitLimit - admission.unitsUsed);
      }
      // An admission is one order: once it is placed the turn is over, and its place goes to the next in line.
      await this.queues.finishEntryOf(queue.id, token.requestId, 'completed', request.now);
    }
  }

  /** The queues gating the request's lines, each with the units of its tickets and the verified token shown for it. */
  private async gating(
    request: GateRequest,
  ): Promise<Array<{ queue: LiveQueue['queue']; units: number; token: { jti: string; requestId: string } }>> {
    const guarding = await this.live.guarding(request.lines);
    const found: Array<{ queue: LiveQueue['queue']; units: number; token: { jti: string; requestId: string } }> = [];
    for (const live of guarding) {
      const { queue } = live;
      if (!gatesAt(queue, request.now)) continue;
      if (mayBypassQueue(request.user, { id: queue.eventId, authorId: live.authorId })) continue;
      const lines = request.lines.filter((line) => line.eventId === queue.eventId && (live.ticketIds?.has(line.ticketId) ?? true));
      if (request.raised && !lines.some((line) => request.raised?.has(line.ticketId) ?? false)) continue;
      if (!request.token) throw admissionRequired(queue.id);
      const verified = await this.tokens.verify(request.token, queue.id, request.now);
      if ('problem' in verified) throw admissionInvalid(queue.id, PROBLEM_TEXT[verified.problem]);
      found.push({ queue, units: unitsOf(lines), token: verified });
    }
    return found;
  }

  /** The admission a verified token names, when it is of the queue, not revoked and not expired. */
  private async admission(queueId: number, jti: string, now: Date): Promise<QueueAdmission> {
    const admission = await this.queues.findAdmission(jti);
    if (!admission || admission.queueId !== queueId) throw admissionInvalid(queueId, PROBLEM_TEXT.malformed);
    if (admission.revokedAt) throw admissionInvalid(queueId, 'revoked');
    if (admission.expiresAt <= now) throw admissionInvalid(queueId, 'expired');
    return admission;
  }
}

function unitsOf(lines: GatedLine[]): number {
  return lines.reduce((sum, line) => sum + line.quantity, 0);
}
