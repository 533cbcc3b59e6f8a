import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EMAIL_TEMPLATES, type EmailTemplate } from '../email-templates';

@ApiSchema({ name: 'QueuedEmail' })
export class QueuedEmail {
  @ApiProperty({ enum: EMAIL_TEMPLATES }) template: EmailTemplate;
  @ApiProperty() recipient: string;
}

/** Answer of the resend routes: the emails queued (sent by the outbox worker shortly after). */
@ApiSchema({ name: 'Resend' })
export class ResendResponse {
  @ApiProperty({ type: [QueuedEmail] }) queued: QueuedEmail[];
}
