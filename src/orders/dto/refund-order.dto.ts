import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Body of POST /orders/{id}/refund: nothing refunds what is left in full. */
@ApiSchema({ name: 'OrderRefund' })
export class RefundOrderDto {
  @ApiPropertyOptional({
    description:
      'Orders paid through Stripe: refund this much only (exact decimal, no more decimals than the currency has); the order stays completed until all is refunded',
    example: '10.00',
  })
  @IsOptional()
  // A JSON number is taken as its decimal text.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value))
  // Read as money, with the currency's decimals, by PaymentsService.refundThroughProvider.
  @IsString({ message: 'amount must be a decimal such as 10.00' })
  @MaxLength(40, { message: 'amount must be a decimal such as 10.00' })
  amount?: string;
}
