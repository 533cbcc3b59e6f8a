import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { EXPORT_FORMATS, EXPORT_KINDS, EXPORT_STATUSES } from '../export-job.entity';

@ApiSchema({ name: 'ExportJob' })
export class ExportJobResponse {
  @ApiProperty()
  id: number;

  @ApiProperty({ enum: EXPORT_KINDS })
  kind: string;

  @ApiProperty({ enum: EXPORT_FORMATS })
  format: string;

  @ApiProperty({ enum: EXPORT_STATUSES, description: 'queued → running → done → expired (file deleted); or failed' })
  status: string;

  @ApiProperty({ description: 'When it was asked for (UTC, YYYY-MM-DD HH:MM:SS)' })
  created: string;

  @ApiPropertyOptional({ description: 'When the file was finished (UTC)' })
  completed?: string;

  @ApiPropertyOptional({ description: 'Until when the file can be downloaded (UTC)' })
  expires?: string;

  @ApiPropertyOptional({ description: 'Rows in the file, once done' })
  rows?: number;

  @ApiPropertyOptional({ description: 'Size of the file in bytes, once done' })
  size?: number;

  @ApiPropertyOptional({ description: 'Why it failed' })
  error?: string;

  @ApiProperty({ format: 'uri', description: 'This job (GET for its state)' })
  url: string;

  @ApiProperty({
    format: 'uri',
    description: 'The file, with a signed token (no credentials needed): 409 export-not-ready until done, 410 once expired',
  })
  download_url: string;
}
