import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { SCOPES } from '../../auth/scopes';

/** An API token as lists and reads show it: never its secret. */
@ApiSchema({ name: 'ApiToken' })
export class TokenResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The public part of the secret: cal_<prefix>_…', example: 'Ab3dE5gH' }) prefix: string;
  @ApiProperty({ type: [String], enum: SCOPES }) scopes: string[];
  @ApiPropertyOptional({ description: 'The preset it was made from' }) preset?: string;
  @ApiProperty({ description: 'Every event the owner may act on' }) all_events: boolean;
  @ApiProperty({ type: [Number], description: 'The events it is limited to ([] with all_events)' }) limit_events: number[];
  @ApiProperty({ enum: ['full', 'redacted'] }) pii: 'full' | 'redacted';
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) expires_at: string | null;
  @ApiProperty({ type: [String], description: 'Addresses and CIDR ranges; [] is any' }) allowed_ips: string[];
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'To the minute' }) last_used_at: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) revoked_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ description: 'The user the token acts as' }) owner: number;
}

/** The answer to POST /tokens: the token and, this once, its secret. */
@ApiSchema({ name: 'ApiTokenCreated' })
export class TokenCreatedResponse extends TokenResponse {
  @ApiProperty({ description: 'Shown once: send as `Authorization: Bearer <token>`; only its hash is kept' }) token: string;
}

@ApiSchema({ name: 'ApiTokenList' })
export class TokenListResponse {
  @ApiProperty() total: number;
  @ApiProperty() total_pages: number;
  @ApiProperty({ type: [TokenResponse] }) tokens: TokenResponse[];
}
