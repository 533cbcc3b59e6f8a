import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireCapability } from '../auth/decorators';
import { ApiErrorResponse } from '../common/errors/api-error.response';
import { readForceFlag, RouteIdPipe } from '../common/http/route-params';
import { setTotalHeaders } from '../common/pagination/pagination';
import { CreateVenueDto } from './dto/create-venue.dto';
import { ListVenuesQuery } from './dto/list-venues.query';
import { UpdateVenueDto } from './dto/update-venue.dto';
import { VenueListResponse, VenueResponse } from './dto/venue.response';
import { VenuesService } from './venues.service';
import { RequestContext, SignedInContext } from '../common/http/request-context';

const IdParam = () => ApiParam({ name: 'id', description: 'Venue id', schema: { type: 'integer' } });
const SlugParam = () => ApiParam({ name: 'slug', description: 'Venue slug', schema: { type: 'string' } });

const NotFound = () =>
  ApiNotFoundResponse({
    type: ApiErrorResponse,
    description: '`venue-not-found`: no venue has this id or slug; `rest_no_route`: an id that is not a number',
  });

const UNAUTHORIZED = '`rest_forbidden`: anonymous caller; `incorrect_password`: wrong credentials';

const BadRequest = () =>
  ApiBadRequestResponse({
    type: ApiErrorResponse,
    description: '`rest_missing_callback_param` or `rest_invalid_param` naming the fields',
  });

const UpdateDocs = () =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('edit_events', {
      unauthorized: UNAUTHORIZED,
      forbidden: '`rest_forbidden`: not allowed to edit this venue (or to name another author)',
    }),
    ApiOperation({ summary: 'Update a venue (POST, PUT and PATCH alike): fields left out keep their values, "" clears one' }),
    ApiOkResponse({ type: VenueResponse, description: 'The updated venue' }),
    BadRequest(),
    NotFound(),
  );

const DeleteDocs = () =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('delete_events', { unauthorized: UNAUTHORIZED, forbidden: '`rest_forbidden`: not allowed to delete this venue' }),
    ApiOperation({ summary: 'Move a venue to the trash, or delete it for good with force=true (its links to events go with it)' }),
    ApiQuery({
      name: 'force',
      required: false,
      description: 'true: delete for good instead of trashing',
      schema: { type: 'boolean', default: false },
    }),
    ApiOkResponse({ type: VenueResponse, description: 'The venue as it was last: trashed, or before its removal' }),
    ApiGoneResponse({ type: ApiErrorResponse, description: '`venue-is-in-trash`: already trashed (use force=true)' }),
    NotFound(),
  );

const ReadDocs = () =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: 'One venue, with its schema.org JSON-LD' }),
    ApiOkResponse({ type: VenueResponse }),
    ApiForbiddenResponse({ type: ApiErrorResponse, description: '`venue-not-accessible`: not published and not readable by the caller' }),
    NotFound(),
  );

@ApiTags('events')
@Controller('events/v1/venues')
export class VenuesController {
  constructor(private readonly venues: VenuesService) {}

  @Get()
  @HttpCode(200)
  @ApiOperation({ summary: 'Venues the caller may see, newest first' })
  @ApiOkResponse({ type: VenueListResponse, description: 'One page; X-TEC-Total and X-TEC-TotalPages carry the totals' })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`rest_invalid_param`: a bad page, per_page, status or event' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: '`venue-archive-page-not-found`: a page past the last one' })
  async list(
    @Query() query: ListVenuesQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<VenueListResponse> {
    const page = await this.venues.list(query, context);
    setTotalHeaders(response, 'events', page.total, page.total_pages);
    return page;
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('edit_events', {
    unauthorized: UNAUTHORIZED,
    forbidden: '`rest_forbidden`: the caller may not create venues (or name another author)',
  })
  @ApiOperation({ summary: 'Create a venue; a visible venue matching every field sent is returned instead of a duplicate' })
  @ApiCreatedResponse({ type: VenueResponse, description: 'The venue, with its URL in Location' })
  @BadRequest()
  async create(
    @Body() body: CreateVenueDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<VenueResponse> {
    const venue = await this.venues.create(body, context.user, context);
    response.setHeader('Location', context.namespaceUrl('events', `venues/${venue.id}`));
    return venue;
  }

  @Get('by-slug/:slug')
  @ReadDocs()
  @SlugParam()
  findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<VenueResponse> {
    return this.venues.findOne({ slug }, context);
  }

  @Post('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPost(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Put('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPut(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Patch('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPatch(
    @Param('slug') slug: string,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ slug }, body, context.user, context);
  }

  @Delete('by-slug/:slug')
  @DeleteDocs()
  @SlugParam()
  removeBySlug(
    @Param('slug') slug: string,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.remove({ slug }, readForceFlag(force), context.user, context);
  }

  @Get(':id')
  @ReadDocs()
  @IdParam()
  findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<VenueResponse> {
    return this.venues.findOne({ id }, context);
  }

  @Post(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Put(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Patch(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateVenueDto,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.update({ id }, body, context.user, context);
  }

  @Delete(':id')
  @DeleteDocs()
  @IdParam()
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<VenueResponse> {
    return this.venues.remove({ id }, readForceFlag(force), context.user, context);
  }
}
