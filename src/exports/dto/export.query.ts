import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ListAttendeesQuery } from '../../attendees/dto/list-attendees.query';
import { ListOrdersQuery } from '../../orders/dto/list-orders.query';
import { EXPORT_FORMATS, ExportFormat } from '../export-job.entity';

const FORMAT = { description: 'File format', enum: EXPORT_FORMATS, default: 'csv' } as const;
const FORMAT_MESSAGE = `format must be one of ${EXPORT_FORMATS.join(', ')}`;

/** The attendee list's filters (paging and ordering left out: an export is every match, by id) and the format. */
export class ExportAttendeesQuery extends OmitType(ListAttendeesQuery, ['page', 'per_page', 'offset', 'order', 'orderby'] as const) {
  @ApiPropertyOptional(FORMAT)
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: FORMAT_MESSAGE })
  format?: ExportFormat;
}

/** The order list's filters (without paging) and the format. */
export class ExportOrdersQuery extends OmitType(ListOrdersQuery, ['page', 'per_page'] as const) {
  @ApiPropertyOptional(FORMAT)
  @IsOptional()
  @IsIn(EXPORT_FORMATS, { message: FORMAT_MESSAGE })
  format?: ExportFormat;
}
