import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';

export class ExportDownloadQuery {
  @ApiProperty({ description: 'The signed token of the download_url' })
  @IsDefined({ message: 'token is required' })
  @IsString({ message: 'token must be a string' })
  @MaxLength(100, { message: 'token is not valid' })
  token: string;
}
