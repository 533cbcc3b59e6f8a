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
import { CreateOrganizerDto } from './dto/create-organizer.dto';
import { ListOrganizersQuery } from './dto/list-organizers.query';
import { UpdateOrganizerDto } from './dto/update-organizer.dto';
import { OrganizerListResponse, OrganizerResponse } from './dto/organizer.response';
import { OrganizersService } from './organizers.service';
import { RequestContext, SignedInContext } from '../common/http/request-context';

const IdParam = () => ApiParam({ name: 'id', description: 'Organizer id', schema: { type: 'integer' } });
const SlugParam = () => ApiParam({ name: 'slug', description: 'Organizer slug', schema: { type: 'string' } });

const NotFound = () =>
  ApiNotFoundResponse({
    type: ApiErrorResponse,
    description: '`organizer-not-found`: no organizer has this id or slug; `rest_no_route`: an id that is not a number',
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
      forbidden: '`rest_forbidden`: not allowed to edit this organizer (or to name another author)',
    }),
    ApiOperation({ summary: 'Update an organizer (POST, PUT and PATCH alike): fields left out keep their values, "" clears one' }),
    ApiOkResponse({ type: OrganizerResponse, description: 'The updated organizer' }),
    BadRequest(),
    NotFound(),
  );

const DeleteDocs = () =>
  applyDecorators(
    HttpCode(200),
    RequireCapability('delete_events', { unauthorized: UNAUTHORIZED, forbidden: '`rest_forbidden`: not allowed to delete this organizer' }),
    ApiOperation({ summary: 'Move an organizer to the trash, or delete it for good with force=true (its links to events go with it)' }),
    ApiQuery({
      name: 'force',
      required: false,
      description: 'true: delete for good instead of trashing',
      schema: { type: 'boolean', default: false },
    }),
    ApiOkResponse({ type: OrganizerResponse, description: 'The organizer as it was last: trashed, or before its removal' }),
    ApiGoneResponse({ type: ApiErrorResponse, description: '`organizer-is-in-trash`: already trashed (use force=true)' }),
    NotFound(),
  );

const ReadDocs = () =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: 'One organizer, with its schema.org JSON-LD' }),
    ApiOkResponse({ type: OrganizerResponse }),
    ApiForbiddenResponse({
      type: ApiErrorResponse,
      description: '`organizer-not-accessible`: not published and not readable by the caller',
    }),
    NotFound(),
  );

@ApiTags('events')
@Controller('events/v1/organizers')
export class OrganizersController {
  constructor(private readonly organizers: OrganizersService) {}

  @Get()
  @HttpCode(200)
  @ApiOperation({ summary: 'Organizers the caller may see, newest first' })
  @ApiOkResponse({ type: OrganizerListResponse, description: 'One page; X-TEC-Total and X-TEC-TotalPages carry the totals' })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: '`rest_invalid_param`: a bad page, per_page, status or event' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: '`organizer-archive-page-not-found`: a page past the last one' })
  async list(
    @Query() query: ListOrganizersQuery,
    @RequestContext() context: RequestContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizerListResponse> {
    const page = await this.organizers.list(query, context);
    setTotalHeaders(response, 'events', page.total, page.total_pages);
    return page;
  }

  @Post()
  @HttpCode(201)
  @RequireCapability('edit_events', {
    unauthorized: UNAUTHORIZED,
    forbidden: '`rest_forbidden`: the caller may not create organizers (or name another author)',
  })
  @ApiOperation({ summary: 'Create an organizer; a visible organizer matching every field sent is returned instead of a duplicate' })
  @ApiCreatedResponse({ type: OrganizerResponse, description: 'The organizer, with its URL in Location' })
  @BadRequest()
  async create(
    @Body() body: CreateOrganizerDto,
    @RequestContext() context: SignedInContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizerResponse> {
    const organizer = await this.organizers.create(body, context.user, context);
    response.setHeader('Location', context.namespaceUrl('events', `organizers/${organizer.id}`));
    return organizer;
  }

  @Get('by-slug/:slug')
  @ReadDocs()
  @SlugParam()
  findBySlug(@Param('slug') slug: string, @RequestContext() context: RequestContext): Promise<OrganizerResponse> {
    return this.organizers.findOne({ slug }, context);
  }

  @Post('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPost(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Put('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPut(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Patch('by-slug/:slug')
  @UpdateDocs()
  @SlugParam()
  updateBySlugWithPatch(
    @Param('slug') slug: string,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ slug }, body, context.user, context);
  }

  @Delete('by-slug/:slug')
  @DeleteDocs()
  @SlugParam()
  removeBySlug(
    @Param('slug') slug: string,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.remove({ slug }, readForceFlag(force), context.user, context);
  }

  @Get(':id')
  @ReadDocs()
  @IdParam()
  findById(@Param('id', RouteIdPipe) id: number, @RequestContext() context: RequestContext): Promise<OrganizerResponse> {
    return this.organizers.findOne({ id }, context);
  }

  @Post(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPost(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Put(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPut(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Patch(':id')
  @UpdateDocs()
  @IdParam()
  updateWithPatch(
    @Param('id', RouteIdPipe) id: number,
    @Body() body: UpdateOrganizerDto,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.update({ id }, body, context.user, context);
  }

  @Delete(':id')
  @DeleteDocs()
  @IdParam()
  remove(
    @Param('id', RouteIdPipe) id: number,
    @Query('force') force: unknown,
    @RequestContext() context: SignedInContext,
  ): Promise<OrganizerResponse> {
    return this.organizers.remove({ id }, readForceFlag(force), context.user, context);
  }
}
