import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { CHALLENGE_NONCE_PATTERN } from '../queue-challenge';

export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** Body of POST /queues/{id}/entries: the client makes `request_id` and a secret, and sends only the secret's hash. */
@ApiSchema({ name: 'QueueJoin' })
export class JoinQueueDto {
  @ApiProperty({
    description: 'Made by the client: 8 to 64 letters, digits, _ or -; one entry per request_id',
    example: 'b1f0c3d2e4a5f6a7',
  })
  @IsDefined()
  @IsString({ message: 'request_id must be 8 to 64 letters, digits, _ or -' })
  @Matches(REQUEST_ID_PATTERN, { message: 'request_id must be 8 to 64 letters, digits, _ or -' })
  request_id: string;

  @ApiProperty({
    description: 'Hex SHA-256 of a random secret the client keeps (64 hex digits); the admission needs the secret',
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })
  @IsDefined()
  @IsString({ message: 'secret_hash must be 64 hex digits' })
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'secret_hash must be 64 hex digits' })
  secret_hash: string;

  @ApiPropertyOptional({
    description:
      'When the queue has challenge_bits: a nonce such that SHA-256("{queue id}:{request_id}:{nonce}") starts with that many zero bits (1 to 64 letters, digits, _ or -)',
    example: '1c2f',
  })
  @IsOptional()
  @IsString({ message: 'challenge_nonce must be 1 to 64 letters, digits, _ or -' })
  @Matches(CHALLENGE_NONCE_PATTERN, { message: 'challenge_nonce must be 1 to 64 letters, digits, _ or -' })
  challenge_nonce?: string;
}

/** Body of POST /queues/{id}/entries/{request_id}/admission. */
@ApiSchema({ name: 'QueueAdmissionClaim' })
export class ClaimAdmissionDto {
  @ApiProperty({ description: 'The secret whose SHA-256 the join sent', maxLength: 256 })
  @IsDefined()
  @IsString({ message: 'secret must be a string' })
  @MaxLength(256, { message: 'secret must be at most 256 characters' })
  secret: string;
}
