import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TagResponse, TermPageResponse } from '../../terms/term-response.dto';

@ApiSchema({ name: 'TagList' })
export class TagListResponse extends TermPageResponse('tags') {
  @ApiProperty({ type: [TagResponse] })
  tags: TagResponse[];
}
