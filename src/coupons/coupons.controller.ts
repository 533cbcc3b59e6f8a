import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { RequestContext, SignedInContext } from '../auth/request-context';
import { RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CouponsService } from './coupons.service';
import { CreateCouponDto } from './dto/create-coupon.dto';
import { CouponListResponse, CouponResponse } from './dto/coupon.response';
import { ListCouponsQuery } from './dto/list-coupons.query';
import { UpdateCouponDto } from './dto/update-coupon.dto';
import { RequireScope } from '../auth/scope-decorators';

const ID_PARAM = ApiParam({ name: 'id', description: 'Coupon id', schema: { type: 'integer' } });
const MANAGERS = {
  forbidden: 'rest_forbidden: authors, editors and administrators only; coupon-forbidden: a coupon of events the caller does not manage',
};
const NOT_FOUND = ApiNotFoundResponse({ description: 'coupon-not-found' });
const BAD_INPUT = ApiBadRequestResponse({
  description:
    'rest_missing_callback_param (code, discount_type) or rest_invalid_param naming the field (code, post_id, ticket_ids, amount, max_uses, starts_at, ends_at)',
});

const UpdateDocs = () =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('publish_events', MANAGERS),
    ID_PARAM,
    ApiOperation({ summary: 'Change a coupon; fields left out keep their values, uses is read-only' }),
    ApiOkResponse({ type: CouponResponse }),
    BAD_INPUT,
    NOT_FOUND,
    ApiConflictResponse({ description: 'coupon-code-taken: another coupon has this code (case ignored)' }),
  );

@ApiTags('tickets')
@Controller('tickets/v1/coupons')
export class CouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @Get()
  @RequireScope('coupons:read')
  @HttpCode(200)
  @RequireCapability('publish_events', {
    forbidden: 'rest_forbidden: authors, editors and administrators only; and post_id naming an event the caller does not manage',
  })
  @ApiOperation({ summary: "List the coupons the caller manages: editors and administrators all, authors their own and their events'" })
  @ApiOkResponse({ type: CouponListResponse, description: 'Headers X-ET-TOTAL and X-ET-TOTAL-PAGES carry the totals' })
  @ApiBadRequestResponse({ description: 'rest_invalid_param (page, per_page, post_id: not an event) or invalid-page-number' })
  async list(
    @Query() query: ListCouponsQuery,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CouponListResponse> {
    const page = await this.coupons.list(query, context);
    setTotalHeaders(response, 'tickets', page.total, page.total_pages);
    return page;
  }

  @Post()
  @RequireScope('coupons:write')
  @HttpCode(201)
  @RequireCapability('publish_events', MANAGERS)
  @ApiOperation({ summary: 'Create a coupon or access code for an event the caller manages, or for all of their events' })
  @ApiCreatedResponse({ type: CouponResponse, description: 'The coupon; Location names it' })
  @BAD_INPUT
  @ApiConflictResponse({ description: 'coupon-code-taken: another coupon has this code (case ignored)' })
  async create(
    @Body() body: CreateCouponDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CouponResponse> {
    const coupon = await this.coupons.create(body, context);
    response.setHeader('Location', coupon.rest_url);
    return coupon;
  }

  @Get(':id')
  @RequireScope('coupons:read')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ID_PARAM
  @ApiOperation({ summary: 'Read a coupon' })
  @ApiOkResponse({ type: CouponResponse })
  @NOT_FOUND
  get(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<CouponResponse> {
    return this.coupons.get(id, context);
  }

  @Put(':id')
  @RequireScope('coupons:write')
  @UpdateDocs()
  replace(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCouponDto,
    @RequestContext() context: SignedInContext,
  ): Promise<CouponResponse> {
    return this.coupons.update(id, body, context);
  }

  @Patch(':id')
  @RequireScope('coupons:write')
  @UpdateDocs()
  update(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateCouponDto,
    @RequestContext() context: SignedInContext,
  ): Promise<CouponResponse> {
    return this.coupons.update(id, body, context);
  }

  @Delete(':id')
  @RequireScope('coupons:write')
  @HttpCode(200)
  @RequireCapability('publish_events', MANAGERS)
  @ID_PARAM
  @ApiOperation({ summary: 'Delete a coupon that has never been used' })
  @ApiOkResponse({ type: CouponResponse, description: 'The coupon as it was deleted' })
  @NOT_FOUND
  @ApiConflictResponse({ description: 'coupon-has-uses: orders used it; set ends_at instead' })
  remove(@Param('id', RouteIdPipe) id: number, @RequestContext() context: SignedInContext): Promise<CouponResponse> {
    return this.coupons.remove(id, context);
  }
}
