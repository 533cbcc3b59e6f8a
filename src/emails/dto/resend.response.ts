import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EMAIL_TEMPLATES } from '../email-templates';

@ApiSchema({ name: 'QueuedEmail' })
export class QueuedEmailDoc {
  @ApiProperty({ enum: EMAIL_TEMPLATES }) template: string;
  @ApiProperty() recipient: string;
}

/** Answer of the resend routes: the emails queued (sent by the outbox worker shortly after). */
@ApiSchema({ name: 'Resend' })
export class ResendResponse {
  @ApiProperty({ type: [QueuedEmailDoc] }) queued: QueuedEmailDoc[];
}
