import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'ErrorData' })
export class ApiErrorDataResponse {
  @ApiProperty({ description: 'HTTP status of the response', example: 400 })
  status: number;

  @ApiPropertyOptional({
    description: 'Missing fields (a list) or invalid fields with the reason for each (an object)',
    oneOf: [
      { type: 'array', items: { type: 'string' } },
      { type: 'object', additionalProperties: { type: 'string' } },
    ],
  })
  params?: string[] | Record<string, string>;
}

/** The error envelope of every route, for the OpenAPI document (see api-error.ts). */
@ApiSchema({ name: 'Error' })
export class ApiErrorResponse {
  @ApiProperty({ description: 'Machine-readable error code', example: 'rest_invalid_param' })
  code: string;

  @ApiProperty({ description: 'Human-readable message', example: 'Invalid parameter(s): name' })
  message: string;

  @ApiProperty({ type: ApiErrorDataResponse })
  data: ApiErrorDataResponse;
}
