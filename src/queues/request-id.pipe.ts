import { Injectable, PipeTransform } from '@nestjs/common';
import { invalidParam } from '../common/errors/api-error';
import { REQUEST_ID_PATTERN } from './dto/join-queue.dto';

/** The `request_id` route segment: what a join accepts, else 400 naming it. */
@Injectable()
export class RequestIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!REQUEST_ID_PATTERN.test(value)) throw invalidParam('request_id', 'request_id must be 8 to 64 letters, digits, _ or -');
    return value;
  }
}
