import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** Body of POST /qr: what the check-in app read from the ticket's QR code. */
@ApiSchema({ name: 'QrCheckIn' })
export class QrCheckInDto {
  @ApiProperty({ description: "The attendee's security code, as printed in the QR code", maxLength: 64 })
  @IsDefined()
  @IsString({ message: 'security_code must be a string' })
  @IsNotEmpty({ message: 'security_code must not be empty' })
  @MaxLength(64, { message: 'security_code is not a security code' })
  security_code: string;
}
