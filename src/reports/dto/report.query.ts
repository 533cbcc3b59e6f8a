import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToInteger } from '../../common/http/transforms';
import { REPORT_INTERVALS, ReportInterval } from '../report-intervals';

const POST_ID = 'post_id must be an event id';

/** Query of GET /reports/summary. */
export class SummaryReportQuery {
  @ApiProperty({ description: 'The event (must exist; the caller must manage it)', type: 'integer' })
  @IsDefined({ message: 'post_id is required' })
  @ToInteger()
  @IsInt({ message: POST_ID })
  @Min(1, { message: POST_ID })
  @Max(2_147_483_647, { message: POST_ID })
  post_id: number;
}

/** Query of GET /reports/sales. */
export class SalesReportQuery extends SummaryReportQuery {
  @ApiPropertyOptional({ description: 'First UTC day (YYYY-MM-DD); default: 29 days before `to`', example: '2026-11-01' })
  @IsOptional()
  @IsString({ message: 'from must be a date (YYYY-MM-DD)' })
  @MaxLength(10, { message: 'from must be a date (YYYY-MM-DD)' })
  from?: string;

  @ApiPropertyOptional({
    description: 'Last UTC day (YYYY-MM-DD), included; default: today. At most 366 days from `from`',
    example: '2026-11-30',
  })
  @IsOptional()
  @IsString({ message: 'to must be a date (YYYY-MM-DD)' })
  @MaxLength(10, { message: 'to must be a date (YYYY-MM-DD)' })
  to?: string;

  @ApiPropertyOptional({ description: 'Length of each interval (week: ISO weeks from Monday)', enum: REPORT_INTERVALS, default: 'day' })
  @IsOptional()
  @IsIn(REPORT_INTERVALS, { message: 'interval must be day or week' })
  interval?: ReportInterval;
}
