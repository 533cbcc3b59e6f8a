import { BadRequestException } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { checkoutFailureReason } from './checkout-metrics.interceptor';

describe('checkoutFailureReason', () => {
  it('names failures by the code their answer carries', () => {
    expect(checkoutFailureReason(new ApiError('cart-empty', 'empty', 400))).toBe('cart-empty');
    expect(checkoutFailureReason(Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY' }))).toBe('rest_conflict');
    expect(checkoutFailureReason(Object.assign(new Error('deadlock'), { code: 'ER_LOCK_DEADLOCK' }))).toBe('database-busy');
    expect(checkoutFailureReason(new BadRequestException())).toBe('http_400');
    expect(checkoutFailureReason(new Error('boom'))).toBe('internal_server_error');
  });
});
