import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ToIntList, Trimmed } from '../../common/http/transforms';

/** Body of POST /devices. */
@ApiSchema({ name: 'DeviceCreate' })
export class CreateDeviceDto {
  @ApiProperty({ description: 'Shown as the gate in the history', maxLength: 191 })
  @IsDefined()
  @Trimmed()
  @IsString({ message: 'name must be a string' })
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(191, { message: 'name must be at most 191 characters' })
  name: string;

  @ApiProperty({ description: 'The check-in lists the device may scan for (of events the caller manages)', type: [Number] })
  @IsDefined()
  @ToIntList()
  @IsArray({ message: 'list_ids must be a list of check-in list ids' })
  @ArrayMinSize(1, { message: 'list_ids must name at least one list' })
  @ArrayMaxSize(50, { message: 'list_ids holds at most 50 ids' })
  @IsInt({ each: true, message: 'list_ids must be a list of check-in list ids' })
  @Min(1, { each: true, message: 'list_ids must be a list of check-in list ids' })
  @Max(2_147_483_647, { each: true, message: 'list_ids must be a list of check-in list ids' })
  list_ids: number[];
}

/** Body of POST /devices/initialize. */
@ApiSchema({ name: 'DeviceInitialize' })
export class InitializeDeviceDto {
  @ApiProperty({ description: 'The initialization token POST /devices answered', maxLength: 100 })
  @IsDefined()
  @IsString({ message: 'token must be a string' })
  @IsNotEmpty({ message: 'token must not be empty' })
  @MaxLength(100, { message: 'token is not an initialization token' })
  token: string;

  @ApiPropertyOptional({ description: 'What the device is, e.g. "Pixel 7"', maxLength: 191 })
  @IsOptional()
  @IsString({ message: 'hardware must be a string' })
  @MaxLength(191, { message: 'hardware must be at most 191 characters' })
  hardware?: string;

  @ApiPropertyOptional({ description: 'What runs on it, e.g. "cal door page 1"', maxLength: 191 })
  @IsOptional()
  @IsString({ message: 'software must be a string' })
  @MaxLength(191, { message: 'software must be at most 191 characters' })
  software?: string;
}
